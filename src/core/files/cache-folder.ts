/**
 * Keeping a cache folder (the operations cache, the validator cache) to its size: one rule for both.
 * Least recently *used* entries go, not least recently written: a hit refreshes its entry's time, or
 * the entry of a document used at every start would be evicted by a few thousand one-off ones.
 */
import { futimesSync, type Stats } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** A hit refreshes its entry at most this often: a write per start would cost more than eviction order is worth. */
const REFRESH_AFTER_MS = 60 * 60 * 1000;
/** A temporary file this old was left by a killed process (a write takes milliseconds). */
const LEFTOVER_AFTER_MS = 60 * 1000;

/** Marks the entry open as `fd` as used now (its mtime), when it was last marked over an hour ago. */
export function markUsed(fd: number, stats: Pick<Stats, 'mtimeMs'>, now = Date.now()): void {
  if (now - stats.mtimeMs < REFRESH_AFTER_MS) return;
  try {
    futimesSync(fd, now / 1000, now / 1000);
  } catch {
    // a read-only cache still serves: the entry is only evicted sooner
  }
}

export interface CacheFolderLimits {
  /** An entry's file name (temporary files and anything else are not entries). */
  readonly isEntry: (name: string) => boolean;
  /** Entries kept after a prune. */
  readonly keep: number;
  /**
   * Entries allowed beyond `keep` before a prune reads every entry's time: pruning at keep + 1 read
   * all of them to remove one, at every miss of every process (5,000 entries took ~0.5 s of CPU).
   */
  readonly slack: number;
}

/**
 * Removes temporary files a killed process left, and, once the folder holds more than keep + slack
 * entries, the least recently used down to `keep`. Failures are ignored: a cache only goes faster.
 */
export async function pruneCacheFolder(folder: string, limits: CacheFolderLimits): Promise<void> {
  const names = await readdir(folder);
  const leftovers = names.filter((name) => name.endsWith('.tmp'));
  const entries = names.filter(limits.isEntry);
  const over = entries.length > limits.keep + limits.slack;
  const timed = await Promise.all((over ? [...entries, ...leftovers] : leftovers).map(async (name) => ({ name, at: await mtimeOf(join(folder, name)) })));
  const stale = timed.filter(({ name, at }) => name.endsWith('.tmp') && at < Date.now() - LEFTOVER_AFTER_MS);
  const evicted = over
    ? timed
        .filter(({ name }) => limits.isEntry(name))
        .sort((a, b) => b.at - a.at)
        .slice(limits.keep)
    : [];
  await Promise.all([...evicted, ...stale].map(({ name }) => unlink(join(folder, name)).catch(() => undefined)));
}

async function mtimeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.mtimeMs ?? 0;
}
