import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PlantstoreError } from '../errors.js';

/** The most each kind of input file may hold: far beyond any real one, far below what hurts. */
export const INPUT_FILE_LIMITS = {
  document: 16 * 1024 * 1024,
  config: 1024 * 1024,
  seed: 64 * 1024 * 1024,
} as const;

/** Why an input file cannot be read; the caller puts the path and the flag in front. */
export class InputFileError extends PlantstoreError {
  override readonly name = 'InputFileError';

  constructor(message: string) {
    super('inputFile', message);
  }
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a regular file of at most `limitBytes` as UTF-8. Anything else is refused before it is
 * read: opening a FIFO waits for a writer (start-up would hang) and /dev/zero never ends.
 */
export async function readInputFile(path: string, limitBytes: number): Promise<string> {
  checkRegular(await stat(path), limitBytes);
  // O_NONBLOCK: should the path have become a FIFO since the stat, open still does not wait.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    checkRegular(await handle.stat(), limitBytes);
    // At most limit + 1 bytes: a file that grows while being read is still bounded.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, limitBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limitBytes) throw tooLarge(limitBytes);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    await handle.close();
  }
}

function checkRegular(info: Stats, limitBytes: number): void {
  if (!info.isFile()) throw new InputFileError(`not a regular file but ${kindOf(info)}`);
  if (info.size > limitBytes) throw tooLarge(limitBytes);
}

function tooLarge(limitBytes: number): InputFileError {
  return new InputFileError(`larger than ${mebibytes(limitBytes)}, the most this file may hold`);
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isDirectory()) return 'a directory';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}

function mebibytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
