import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.js';
import { allItems, allocatedPast, createTable, has, highestKey, insert } from './item-table.js';
import { replayLog, type SkippedRecord, type TenantTables } from './plant-log-replay.js';
import { createTenantLog, describe, snapshotChunks, TEMP_SUFFIX, type LogFile, type TenantLog } from './tenant-log.js';
import type { SeedItems, TenantId } from './tenants.js';
import { PLANTS, plantOf, type Plant } from './plant-store.js';

export type { LogFile, LiveState, TenantLog, CollectionSnapshot } from './tenant-log.js';
export type { TenantTables } from './plant-log-replay.js';

/**
 * The durable side of `plantstore serve --data-dir DIR`: one append-only log per tenant,
 * DIR/tenants/<tenant>.jsonl, one JSON record per change. A change counts once its bytes are
 * written and fdatasync'd; changes that arrive while a write+sync is in flight share the next one
 * (group commit).
 *
 * Why a file per tenant rather than one log: a tenant evicted from memory (--max-tenants) is
 * reloaded by reading its own file, never by scanning every tenant's records; a tenant's file is
 * compacted from that tenant's live items alone; and the file's existence is what says a tenant
 * exists, so a tenant that reset or deleted its seed items comes back as it left, not re-seeded.
 * A record names the collection it changes (plants are items of 'plants'), so one file holds all
 * of a tenant's resources.
 * The cost is one fsync per tenant with changes in a batch instead of one for all.
 */
export interface PlantLog {
  /** The folder of the tenants' logs. */
  readonly dir: string;
  /**
   * The tenant's log, replayed. A tenant without a file gets a new one holding the items of
   * `create` (`isNew` then says so), written whole or not at all; without `create`, undefined.
   */
  openTenant(tenant: TenantId, create: SeedItems | undefined): Promise<OpenedTenant | undefined>;
  /** Closes every open tenant log after its pending writes are durable, then releases the data dir. */
  close(): Promise<void>;
}

export interface OpenedTenant {
  readonly log: TenantLog;
  readonly recovery: Recovery;
  /** The replayed collections, for the tenant's stores to take over. */
  readonly tables: TenantTables;
  /** The file was made just now: the tenant did not exist before. */
  readonly isNew: boolean;
}

export interface Recovery {
  /** Items rebuilt from the tenant's log, over all its collections. */
  readonly items: number;
  /** Collections rebuilt from the log. */
  readonly collections: number;
  /**
   * The 'plants' collection as plants, made when read (a million recovered plants are not copied
   * unless asked): read it right after opening, before the tenant's store changes them.
   */
  readonly plants: readonly Plant[];
  /** Records that could not be read (a torn last write after a crash), reported, never fatal. */
  readonly skipped: readonly SkippedRecord[];
  readonly records: number;
}

export interface PlantLogOptions {
  readonly openFile?: (path: string) => Promise<LogFile>;
  /** A tenant log is compacted once it holds more records than this and twice its live plants. Default 10,000. */
  readonly compactAfterRecords?: number;
  /** Problems that are reported, not fatal (a failed compaction). Default: ignored. */
  readonly onProblem?: (message: string) => void;
}

export const TENANTS_DIR = 'tenants';
/** The single log of earlier versions; moved into per-tenant files at start. */
export const LEGACY_LOG_FILE = 'plants.jsonl';
const TENANT_NAME = /^[a-z0-9]+(?::[0-9a-f]+)?$/;

/** The file of a tenant; the ':' of `token:…` is kept out of file names. */
export function tenantLogPath(dataDir: string, tenant: TenantId): string {
  if (!TENANT_NAME.test(tenant)) throw new Error(`"${tenant}" is not a tenant name plantstore makes; it cannot name a log file`);
  return join(dataDir, TENANTS_DIR, `${tenant.replace(':', '-')}.jsonl`);
}

/**
 * Locks the data dir (creating it if missing), removes temp files a crash left mid-compaction
 * (the log they were to replace is still whole), and moves a legacy single log into per-tenant files.
 */
export async function openPlantLog(dataDir: string, options: PlantLogOptions = {}): Promise<PlantLog> {
  await mkdir(dataDir, { recursive: true }).catch((error: unknown) => {
    throw new Error(`cannot create the data dir ${dataDir}: ${describe(error)}`, { cause: error });
  });
  const lock = await lockDataDir(dataDir);
  const dir = join(dataDir, TENANTS_DIR);
  try {
    await mkdir(dir, { recursive: true });
    for (const name of await readdir(dir)) if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true });
    await migrateLegacyLog(dataDir);
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw new Error(`cannot open the plant log in ${dataDir}: ${describe(error)}`, { cause: error });
  }
  const settings = {
    openFile: options.openFile ?? openLogFile,
    compactAfterRecords: options.compactAfterRecords ?? 10_000,
    onProblem: options.onProblem ?? (() => undefined),
    syncDirectory: () => syncDirectory(dir),
  };
  const open = new Map<TenantId, TenantLog>();
  /** Logs still closing (an evicted tenant): a reopen waits, so one file never has two writers. */
  const closing = new Map<TenantId, Promise<void>>();
  let closed = false;

  async function openTenant(tenant: TenantId, create: SeedItems | undefined): Promise<OpenedTenant | undefined> {
    if (closed) throw new Error(`the plant log in ${dataDir} is closed`);
    await closing.get(tenant);
    const path = tenantLogPath(dataDir, tenant);
    try {
      const existing = await readExisting(path);
      if (!existing && !create) return undefined;
      // A new tenant's file appears with its first items or not at all: a crash can never leave
      // a tenant that exists without the seed it was given.
      const bytes = existing ?? (await writeWhole(path, seedTables(create ?? {}), settings.syncDirectory));
      const replay = replayLog(bytes, tenant);
      const file = await settings.openFile(path);
      if (replay.goodEnd < bytes.length) {
        await file.truncate(replay.goodEnd);
        await file.sync();
      }
      const log = createTenantLog(path, file, replay.goodEnd, replay.records, settings);
      const tracked: TenantLog = {
        path,
        sinkFor: log.sinkFor,
        get records() {
          return log.records;
        },
        watch: log.watch,
        compact: log.compact,
        close: () => {
          open.delete(tenant);
          const done = log.close().finally(() => closing.delete(tenant));
          closing.set(tenant, done);
          return done;
        },
      };
      open.set(tenant, tracked);
      const tables = replay.tables.get(tenant) ?? new Map();
      let items = 0;
      for (const table of tables.values()) items += table.byId.size;
      const recovery: Recovery = {
        items,
        collections: tables.size,
        skipped: replay.skipped,
        records: replay.records,
        get plants() {
          const table = tables.get(PLANTS);
          return table ? allItems(table).map(plantOf) : [];
        },
      };
      return { log: tracked, recovery, tables, isNew: !existing };
    } catch (error) {
      throw new Error(`cannot open the plant log ${path}: ${describe(error)}`, { cause: error });
    }
  }

  return {
    dir,
    openTenant,
    async close() {
      closed = true;
      try {
        await Promise.all([...open.values()].map((log) => log.close()));
        await Promise.all(closing.values());
      } finally {
        await lock.release();
      }
    },
  };
}

/** Writes a log file aside, fsyncs it, renames it into place and fsyncs the folder; answers its bytes. */
async function writeWhole(path: string, tables: TenantTables, syncFolder: () => Promise<void>): Promise<Buffer> {
  const collections = [...tables].map(([collection, table]) => ({ collection, items: allItems(table), allocated: table.allocated }));
  const bytes = Buffer.from([...snapshotChunks(collections)].flat().join(''), 'utf8');
  await writeFile(`${path}${TEMP_SUFFIX}`, bytes, { flush: true });
  await rename(`${path}${TEMP_SUFFIX}`, path);
  await syncFolder();
  return bytes;
}

/**
 * Earlier versions kept every tenant in DIR/plants.jsonl. Each tenant's plants become its own file
 * (written aside, fsync'd, renamed), then the old log is renamed away; a crash midway repeats the
 * move from the old log, which is untouched until the end.
 */
async function migrateLegacyLog(dataDir: string): Promise<void> {
  const legacy = join(dataDir, LEGACY_LOG_FILE);
  const bytes = await readExisting(legacy);
  if (!bytes) return;
  const replay = replayLog(bytes);
  const syncTenants = () => syncDirectory(join(dataDir, TENANTS_DIR));
  for (const tenant of replay.tenants) await writeWhole(tenantLogPath(dataDir, tenant), replay.tables.get(tenant) ?? new Map(), syncTenants);
  await rename(legacy, `${legacy}.migrated`);
  await syncDirectory(dataDir);
}

/** A new tenant's seed as tables: each collection's items, allocation moved past their integer keys as a seed moves it. */
function seedTables(seed: SeedItems): TenantTables {
  const tables: TenantTables = new Map();
  for (const [collection, items] of Object.entries(seed)) {
    const table = createTable();
    for (const item of items) if (!has(table, item.id)) insert(table, item);
    allocatedPast(table, highestKey(items));
    tables.set(collection, table);
  }
  return tables;
}

/** The default log file: opened for appending. */
export async function openLogFile(path: string): Promise<LogFile> {
  const handle = await open(path, 'a');
  return {
    async append(data) {
      // A regular file takes the whole write at once; loop anyway rather than assume it.
      for (let offset = 0; offset < data.length;) offset += (await handle.write(data, offset, data.length - offset)).bytesWritten;
    },
    sync: () => handle.datasync(),
    truncate: (size) => handle.truncate(size),
    close: () => handle.close(),
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
