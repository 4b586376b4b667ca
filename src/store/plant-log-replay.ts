import { decodeRecord, readRecord, type ApplyRecord } from './plant-log-record.js';
import type { CollectionKey } from './item-store.js';
import { allocatedPast, clear, createTable, has, insert, overwrite, remove, type ItemTable } from './item-table.js';
import type { StoreChange } from './memory-store.js';
import type { TenantId } from './tenants.js';

/** A tenant's collections as tables a store can take over. */
export type TenantTables = Map<CollectionKey, ItemTable>;

export interface SkippedRecord {
  /** Byte offset of the line in the log file. */
  readonly offset: number;
  readonly reason: string;
}

export interface Replay {
  /** Every tenant's collections as tables a store can take over. */
  readonly tables: ReadonlyMap<TenantId, TenantTables>;
  /** Every tenant the log names, also those left with no items (they exist: they are not new). */
  readonly tenants: readonly TenantId[];
  readonly skipped: readonly SkippedRecord[];
  /** Records read and applied. */
  readonly records: number;
  /** Bytes up to the end of the last good record: everything after it is a torn tail to cut off. */
  readonly goodEnd: number;
}

const NEWLINE = 0x0a;
const PREVIEW_CHARS = 40;

/**
 * Rebuilds every tenant's collections from the log's bytes; a record that names no tenant is
 * `fileTenant`'s (the tenant whose file it is). Never throws: a line that cannot be read is
 * skipped and reported. Lines after the last good record are a write cut short by a crash (the
 * caller cuts them off); an unreadable line with good records after it cannot come from a crash,
 * so its reason says the file was damaged.
 */
export function replayLog(bytes: Uint8Array, fileTenant?: TenantId): Replay {
  const state = new Map<TenantId, TenantTables>();
  const apply = applier(state);
  const bad: SkippedRecord[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let records = 0;
  let goodEnd = 0;
  let position = 0;
  while (position < bytes.length) {
    // Whole lines, about a chunk's worth, are read with one decode and one JSON.parse (a restart
    // reads a million records); from a line with anything amiss on, the chunk is read line by line.
    const chunkEnd = bytes.lastIndexOf(NEWLINE, Math.min(bytes.length, position + CHUNK_BYTES) - 1);
    if (chunkEnd >= position) {
      const { read, whole } = readChunk(utf8, bytes.subarray(position, chunkEnd + 1), fileTenant, apply);
      records += read;
      if (whole) goodEnd = chunkEnd + 1;
      else if (read > 0) goodEnd = lineStart(bytes, position, read);
      position = Math.max(position, goodEnd);
      if (whole) continue;
    }
    const end = chunkEnd >= position ? chunkEnd + 1 : bytes.length;
    while (position < end) {
      const newline = bytes.indexOf(NEWLINE, position);
      if (newline === -1) {
        bad.push({ offset: position, reason: `no trailing newline (${bytes.length - position} bytes${preview(bytes.subarray(position))})` });
        position = bytes.length;
        break;
      }
      let text: string | undefined;
      try {
        text = utf8.decode(bytes.subarray(position, newline));
      } catch {
        bad.push({ offset: position, reason: `not valid UTF-8 (${newline - position} bytes)` });
      }
      if (text !== undefined) {
        const decoded = decodeRecord(text, fileTenant);
        if (decoded.ok) {
          apply(decoded.record.tenant, decoded.record.collection, decoded.record.change);
          records += 1;
          goodEnd = newline + 1;
        } else {
          bad.push({ offset: position, reason: `${decoded.reason}${preview(text)}` });
        }
      }
      position = newline + 1;
    }
  }
  const skipped = bad.map(({ offset, reason }) => ({
    offset,
    reason:
      offset < goodEnd
        ? `corrupt record in the middle of the log, not a torn write (good records follow it): the file was damaged; skipped and left in place: ${reason}`
        : `torn last record (a write cut short by a crash), cut off: ${reason}`,
  }));
  return { tables: state, tenants: [...state.keys()], skipped, records, goodEnd };
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Applies the records of whole lines, in order, up to the first line that is not one, and says
 * how many it applied (none also when the chunk does not parse as lines of JSON at all) and
 * whether that was every line: if not, the caller reads on from there line by line.
 */
function readChunk(
  utf8: { decode(bytes: Uint8Array): string },
  bytes: Uint8Array,
  fileTenant: TenantId | undefined,
  apply: ApplyRecord,
): { read: number; whole: boolean } {
  let values: unknown;
  let lines = 0;
  try {
    const text = utf8.decode(bytes);
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
    // JSON.stringify escapes newlines in names, so a newline only ever ends a record.
    values = JSON.parse(`[${text.slice(0, -1).replaceAll('\n', ',')}]`);
  } catch {
    return NONE;
  }
  // A line holding two values ("{…},{…}") would pass the parse: the counts must agree too, and
  // then value i is line i.
  if (!Array.isArray(values) || values.length !== lines) return NONE;
  let read = 0;
  for (const value of values) {
    if (readRecord(value, fileTenant, apply) !== undefined) break;
    read += 1;
  }
  return { read, whole: read === lines };
}

const NONE = { read: 0, whole: false };

/** Where the line after the first `lines` lines from `from` starts. */
function lineStart(bytes: Uint8Array, from: number, lines: number): number {
  let at = from;
  for (let line = 0; line < lines; line += 1) at = bytes.indexOf(NEWLINE, at) + 1;
  return at;
}

/** Applies changes to the tables of `state`, the last table used kept at hand (a log's records mostly change one collection). */
function applier(state: Map<TenantId, TenantTables>): ApplyRecord {
  let lastTenant: TenantId | undefined;
  let lastCollection: CollectionKey | undefined;
  let lastTable: ItemTable | undefined;
  return (tenant, collection, change) => {
    if (tenant !== lastTenant || collection !== lastCollection || lastTable === undefined) {
      lastTable = tableOf(state, tenant, collection);
      lastTenant = tenant;
      lastCollection = collection;
    }
    apply(lastTable, change);
  };
}

function tableOf(state: Map<TenantId, TenantTables>, tenant: TenantId, collection: CollectionKey): ItemTable {
  let tables = state.get(tenant);
  if (!tables) {
    tables = new Map();
    state.set(tenant, tables);
  }
  let table = tables.get(collection);
  if (!table) {
    table = createTable();
    tables.set(collection, table);
  }
  return table;
}

/** Replay is total: a create of a present key keeps the first, a delete or replace of an absent key does nothing. */
function apply(table: ItemTable, change: StoreChange): void {
  switch (change.kind) {
    case 'create':
      if (!has(table, change.item.id)) insert(table, freeze(change.item));
      break;
    case 'replace':
      overwrite(table, freeze(change.item));
      break;
    case 'delete':
      remove(table, change.id);
      break;
    case 'reset':
      clear(table);
      break;
    case 'allocate':
      allocatedPast(table, change.value);
      break;
    case 'seed':
      for (const item of change.items) if (!has(table, item.id)) insert(table, freeze(item));
      if (change.allocated !== undefined) allocatedPast(table, change.allocated);
      break;
  }
}

function freeze<T extends { readonly fields: object }>(item: T): T {
  Object.freeze(item.fields);
  return Object.freeze(item);
}

function preview(text: string | Uint8Array): string {
  const chars = typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
  return `; starts ${JSON.stringify(chars.slice(0, PREVIEW_CHARS))}${chars.length > PREVIEW_CHARS ? '…' : ''}`;
}
