import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { encodeRecord } from './plant-log-record.js';
import { replayLog, type SkippedRecord } from './plant-log-replay.js';
import type { ChangeSink, Plant, StoreChange } from './plant-store.js';
import type { TenantId } from './tenants.js';

/**
 * The durable side of `plantstore serve --data-dir DIR`: an append-only journal, DIR/plants.jsonl,
 * one JSON record per change of any tenant. A change counts once its bytes are written and
 * fdatasync'd; changes that arrive while a write+sync is in flight share the next one (group
 * commit), so many concurrent clients cost one sync per batch, not one per change.
 *
 * Compaction is not done: the file only grows (a reset is one short record, so a stand-in's log
 * stays small in practice). Rewriting it from the live state would be a later, separate step.
 */
export interface PlantLog {
  /** The journal file. */
  readonly path: string;
  /** The sink for one tenant's store: resolves once the change is durable (fsync'd). */
  sinkFor(tenant: TenantId): ChangeSink;
  /** Closes the file after pending writes are durable, then releases the data dir. */
  close(): Promise<void>;
}

export interface Recovery {
  /** Every tenant's plants as rebuilt from the log, in creation order. Tenants left with none are absent. */
  readonly plants: ReadonlyMap<TenantId, readonly Plant[]>;
  /** Records that could not be read (a torn last write after a crash), reported, never fatal. */
  readonly skipped: readonly SkippedRecord[];
  readonly records: number;
}

/** The journal as the log uses it; tests substitute one that fails or counts. */
export interface JournalFile {
  /** Appends every byte at the end of the file. */
  append(data: Uint8Array): Promise<void>;
  /** fdatasync: the appended bytes survive a power cut. */
  sync(): Promise<void>;
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}

export interface PlantLogOptions {
  readonly openFile?: (path: string) => Promise<JournalFile>;
}

export const LOG_FILE = 'plants.jsonl';

/**
 * Locks the data dir (creating it if missing), replays the journal, cuts off a torn last record so
 * new records never follow garbage, and opens the journal for appending.
 */
export async function openPlantLog(dataDir: string, options: PlantLogOptions = {}): Promise<{ log: PlantLog; recovery: Recovery }> {
  await mkdir(dataDir, { recursive: true }).catch((error: unknown) => {
    throw new Error(`cannot create the data dir ${dataDir}: ${describe(error)}`, { cause: error });
  });
  const lock = await lockDataDir(dataDir);
  const path = join(dataDir, LOG_FILE);
  let file: JournalFile | undefined;
  try {
    const existing = await readExisting(path);
    const replay = replayLog(existing ?? new Uint8Array());
    file = await (options.openFile ?? openJournalFile)(path);
    if (existing && replay.goodEnd < existing.length) {
      await file.truncate(replay.goodEnd);
      await file.sync();
    }
    // A new file's name lives in the directory: sync that too, or a power cut could lose the file.
    if (!existing) await syncDirectory(dataDir);
    const log = createPlantLog(path, file, replay.goodEnd, lock);
    return { log, recovery: { plants: replay.plants, skipped: replay.skipped, records: replay.records } };
  } catch (error) {
    await file?.close().catch(() => undefined);
    await lock.release().catch(() => undefined);
    throw new Error(`cannot open the plant log ${path}: ${describe(error)}`, { cause: error });
  }
}

/** The default journal: the file opened for appending. */
export async function openJournalFile(path: string): Promise<JournalFile> {
  const handle = await open(path, 'a');
  return {
    async append(data) {
      // A regular file takes the whole write at once; loop anyway rather than assume it.
      for (let offset = 0; offset < data.length; ) offset += (await handle.write(data, offset, data.length - offset)).bytesWritten;
    },
    sync: () => handle.datasync(),
    truncate: (size) => handle.truncate(size),
    close: () => handle.close(),
  };
}

interface Pending {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

function createPlantLog(path: string, file: JournalFile, durableSize: number, lock: DataDirLock): PlantLog {
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  /** Set when a failed batch could not be cut back off the file: nothing more can be appended safely. */
  let broken: Error | undefined;

  function submit(tenant: TenantId, change: StoreChange): Promise<void> {
    if (closing) return Promise.reject(new Error(`the plant log ${path} is closed; the change was not stored`));
    if (broken) return Promise.reject(broken);
    const line = encodeRecord(tenant, change);
    return new Promise((resolve, reject) => {
      queue.push({ line, resolve, reject });
      // Start on a later tick so changes made in the same tick (a seed, a burst) share the first batch.
      flushing ??= Promise.resolve().then(drain);
    });
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const failure = broken ?? (await commit(Buffer.from(batch.map((pending) => pending.line).join(''), 'utf8'), batch.length));
      for (const pending of batch) {
        if (failure) pending.reject(failure);
        else pending.resolve();
      }
    }
    flushing = undefined;
  }

  /** One write and one sync for the whole batch; on failure, the file is cut back to its last durable size. */
  async function commit(data: Buffer, changes: number): Promise<Error | undefined> {
    let step = 'write to';
    try {
      await file.append(data);
      step = 'fdatasync of';
      await file.sync();
      durableSize += data.length;
      return undefined;
    } catch (error) {
      const failure = new Error(`plant log: ${step} ${path} failed (${describe(error)}); ${changes} change(s) of this batch were not stored`, { cause: error });
      try {
        // Part of the batch may be in the file; cut it so the next batch never follows half a record.
        await file.truncate(durableSize);
      } catch (truncateError) {
        broken = new Error(
          `the plant log ${path} can no longer be appended to: after a failed ${step} it, cutting it back to ${durableSize} bytes failed too (${describe(truncateError)}); restart the server`,
          { cause: truncateError },
        );
      }
      return failure;
    }
  }

  async function close(): Promise<void> {
    try {
      while (flushing) await flushing;
      await file.close().catch((error: unknown) => {
        throw new Error(`cannot close the plant log ${path}: ${describe(error)}`, { cause: error });
      });
    } finally {
      await lock.release();
    }
  }

  return {
    path,
    sinkFor: (tenant) => (change) => submit(tenant, change),
    close: () => (closing ??= close()),
  };
}

async function readExisting(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the plant log ${path}: ${describe(error)}`, { cause: error });
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms cannot sync a directory; the file itself is still synced on every batch.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM') throw new Error(`cannot sync the data dir ${dir}: ${describe(error)}`, { cause: error });
  } finally {
    await handle.close();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
