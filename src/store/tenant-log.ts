import { open, rename, rm } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { encodeRecord } from './plant-log-record.js';
import type { CollectionKey, Item } from './item-store.js';
import type { ChangeSink, StoreChange } from './memory-store.js';

/** The log file as a tenant log appends to it; tests substitute one that fails or counts. */
export interface LogFile {
  /** Appends every byte at the end of the file. */
  append(data: Uint8Array): Promise<void>;
  /** fdatasync: the appended bytes survive a power cut. */
  sync(): Promise<void>;
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
}

/** One collection as a snapshot writes it. */
export interface CollectionSnapshot {
  readonly collection: CollectionKey;
  /** Its items in creation order. */
  readonly items: readonly Item[];
  /** Its allocation sequence's last number (0n: none given). */
  readonly allocated: bigint;
}

/** What compaction needs from the tenant the log belongs to, read synchronously. */
export interface LiveState {
  /** Items held now: with the records in the file, tells how much of it is dead. */
  readonly size: number;
  /** Every collection held: the snapshot. */
  snapshot(): CollectionSnapshot[];
}

/** One tenant's append-only log file with group commit and compaction. */
export interface TenantLog {
  readonly path: string;
  /** A collection's sink: resolves once the change is durable (fsync'd). */
  sinkFor(collection: CollectionKey): ChangeSink;
  /** Records in the file now (live and dead). */
  readonly records: number;
  /** Compacts when dead records outweigh live ones, checked at once and after every batch. */
  watch(state: LiveState): void;
  /** Rewrites the file as a snapshot of the live state plus the records appended meanwhile. */
  compact(): Promise<void>;
  /** Closes the file after pending writes (and a running compaction) are done. */
  close(): Promise<void>;
}

export interface TenantLogSettings {
  readonly openFile: (path: string) => Promise<LogFile>;
  /** Below this many records a file is never compacted: rewriting it would cost more than it saves. */
  readonly compactAfterRecords: number;
  /** Where a failed compaction is reported; the old file stays authoritative, so it is not fatal. */
  readonly onProblem: (message: string) => void;
  /** fsync of the folder holding the file, so a rename survives a power cut. */
  readonly syncDirectory: () => Promise<void>;
}

interface Pending {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Records written per write while a snapshot is laid down, so creates keep their turn between them. */
const SNAPSHOT_CHUNK = 8_192;
export const TEMP_SUFFIX = '.compacting';

export function createTenantLog(path: string, file: LogFile, durableSize: number, records: number, settings: TenantLogSettings): TenantLog {
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  let compacting: Promise<void> | undefined;
  /** While set, batches wait: compaction needs the file still for a moment. */
  let paused = false;
  let state: LiveState | undefined;
  /** Set when a failed batch could not be cut back off the file: nothing more can be appended safely. */
  let broken: Error | undefined;

  function submit(collection: CollectionKey, change: StoreChange): Promise<void> {
    if (closing) return Promise.reject(new Error(`the plant log ${path} is closed; the change was not stored`));
    if (broken) return Promise.reject(broken);
    const line = encodeRecord(collection, change);
    return new Promise((resolve, reject) => {
      queue.push({ line, resolve, reject });
      // Start on a later tick so changes made in the same tick (a seed, a burst) share the first batch.
      if (!paused) flushing ??= Promise.resolve().then(drain);
    });
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && !paused) {
      const batch = queue;
      queue = [];
      const failure = broken ?? (await commit(Buffer.from(batch.map((pending) => pending.line).join(''), 'utf8'), batch.length));
      for (const pending of batch) {
        if (failure) pending.reject(failure);
        else pending.resolve();
      }
      // Checked after every batch (a steady stream of creates may never let the queue run dry),
      // on a later turn: the store applies what this batch confirmed in its promise continuations.
      if (!compacting && records > settings.compactAfterRecords) setImmediate(checkCompaction);
    }
    flushing = undefined;
  }

  function checkCompaction(): void {
    if (!compacting && !closing && mostlyDead()) void log.compact();
  }

  /** Dead records outweigh live ones, in a file big enough for a rewrite to pay. */
  function mostlyDead(): boolean {
    return state !== undefined && records > settings.compactAfterRecords && records > 2 * state.size;
  }

  /** One write and one sync for the whole batch; on failure, the file is cut back to its last durable size. */
  async function commit(data: Buffer, changes: number): Promise<Error | undefined> {
    let step = 'write to';
    try {
      await file.append(data);
      step = 'fdatasync of';
      await file.sync();
      durableSize += data.length;
      records += changes;
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

  /** Holds batches back until the one in flight is done and the store has applied what it confirmed. */
  async function pause(): Promise<void> {
    paused = true;
    while (flushing) await flushing;
    // Stores apply a confirmed change in a continuation of its promise: let those run first.
    await nextTurn();
  }

  function resume(): void {
    paused = false;
    if (queue.length > 0) flushing ??= Promise.resolve().then(drain);
  }

  /**
   * Snapshot + tail, crash-safe at every step: the snapshot of the live state (taken while no batch
   * is in flight, so it is exactly the file's first `tailStart` bytes replayed) goes to a temp file
   * while creates keep appending to the old file; then, with batches held back only for that
   * moment, the records appended since are copied after it, the temp file is fsync'd and renamed
   * over the log, and the folder fsync'd. A crash before the rename leaves the old log whole (the
   * stray temp file is removed at start); after it, the new one holds everything acknowledged.
   */
  async function compactNow(live: LiveState): Promise<void> {
    const temp = `${path}${TEMP_SUFFIX}`;
    let pausedHere = false;
    let renamed = false;
    try {
      await pause();
      pausedHere = true;
      const snapshot = live.snapshot();
      const tailStart = durableSize;
      resume();
      pausedHere = false;
      const out = await open(temp, 'w');
      let written = 0;
      try {
        let snapshotRecords = 0;
        for (const chunk of snapshotChunks(snapshot)) {
          const bytes = Buffer.from(chunk.join(''), 'utf8');
          await out.write(bytes, 0, bytes.length, written);
          written += bytes.length;
          snapshotRecords += chunk.length;
        }
        await pause();
        pausedHere = true;
        const tail = await readRange(path, tailStart, durableSize);
        if (tail.length > 0) await out.write(tail, 0, tail.length, written);
        await out.datasync();
        const tailRecords = tail.reduce((count, byte) => (byte === 0x0a ? count + 1 : count), 0);
        await out.close();
        await rename(temp, path);
        renamed = true;
        await settings.syncDirectory();
        // From here on the new file is the log: append to it.
        const reopened = await settings.openFile(path);
        await file.close().catch(() => undefined);
        file = reopened;
        durableSize = written + tail.length;
        records = snapshotRecords + tailRecords;
      } finally {
        await out.close().catch(() => undefined);
      }
    } catch (error) {
      if (renamed) {
        // The new file is in place but not (surely) durable or open: appending to the old handle
        // would write to a file no longer named. Refuse changes (503) until a restart reads it.
        broken = new Error(`the plant log ${path} was compacted but could not be reopened (${describe(error)}); restart the server`, { cause: error });
        settings.onProblem(broken.message);
        return;
      }
      await rm(temp, { force: true }).catch(() => undefined);
      settings.onProblem(`compacting the plant log ${path} failed, the log is kept as it was: ${describe(error)}`);
    } finally {
      if (pausedHere) resume();
    }
  }

  async function close(): Promise<void> {
    while (compacting) await compacting;
    while (flushing) await flushing;
    await file.close().catch((error: unknown) => {
      throw new Error(`cannot close the plant log ${path}: ${describe(error)}`, { cause: error });
    });
  }

  const log: TenantLog = {
    path,
    sinkFor: (collection) => (change) => submit(collection, change),
    get records() {
      return records;
    },
    watch(live) {
      state = live;
      checkCompaction();
    },
    compact() {
      if (!state || closing || broken) return Promise.resolve();
      compacting ??= compactNow(state).finally(() => (compacting = undefined));
      return compacting;
    },
    close: () => (closing ??= close()),
  };
  return log;
}

/**
 * The records that rebuild the live state, a chunk at a time (a snapshot of a million items is
 * never held as text all at once): each collection's allocation sequence (which a reset does not
 * undo), then each item's create.
 */
export function* snapshotChunks(collections: readonly CollectionSnapshot[]): Generator<string[]> {
  for (const { collection, items, allocated } of collections) {
    if (allocated > 0n) yield [encodeRecord(collection, { kind: 'allocate', value: allocated })];
    for (let start = 0; start < items.length; start += SNAPSHOT_CHUNK) {
      yield items.slice(start, start + SNAPSHOT_CHUNK).map((item) => encodeRecord(collection, { kind: 'create', item }));
    }
  }
}

async function readRange(path: string, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.alloc(end - start);
  if (bytes.length === 0) return bytes;
  const handle = await open(path, 'r');
  try {
    for (let offset = 0; offset < bytes.length;) {
      const { bytesRead } = await handle.read(bytes, offset, bytes.length - offset, start + offset);
      if (bytesRead === 0) throw new Error(`${path} ended at ${start + offset} bytes, before the ${end} it was known to hold`);
      offset += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return bytes;
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
