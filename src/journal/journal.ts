import { WELL_KNOWN_CREDENTIAL_NAMES, type CredentialNames } from '../auth/credential-names.js';
import { readRequestJson, type JsonValue } from '../core/json/exact-json.js';
import { maskBody, maskHeaders, maskQuery } from './mask.js';
import type { TenantId } from '../store/tenants.js';
import { createRecordRing, headersOfLines, type HeaderLines } from './ring.js';

/** How validation went: not reached (routing or auth refused first), passed, or the violations. */
export type ValidationOutcome = { readonly ok: true } | { readonly ok: false; readonly error: number; readonly message: string };

/** Where a request or a proxied answer departs from the document (serve --proxy); `check` names what was checked. */
export interface ContractViolation {
  readonly side: 'request' | 'response';
  readonly check: string;
  readonly message: string;
}

/** One request the stand-in answered, as a frontend test or a person wants to see it. */
export interface JournalEntry {
  readonly sequence: number;
  /** ISO 8601 time the request arrived. */
  readonly time: string;
  readonly tenant: TenantId;
  /** operationId (or "METHOD path"); absent when no operation matched. */
  readonly operation?: string;
  readonly method: string;
  readonly path: string;
  /** The query string as sent, credential parameters' values masked. */
  readonly query: string;
  readonly status: number;
  readonly durationMs: number;
  readonly validation?: ValidationOutcome;
  /** Name of the fault that shaped the answer, if one did. */
  readonly fault?: string;
  /** Proxy mode: how the request and the real implementation's answer depart from the document. */
  readonly violations?: readonly ContractViolation[];
  readonly request: JournalMessage;
  readonly response: JournalMessage;
}

export interface JournalMessage {
  /**
   * Credentials masked: Authorization shows only a registered scheme (`Bearer ***`), cookies only
   * their names, credential headers (well-known and the document's API keys) only `***`.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, cut at the journal's body limit. */
  readonly body: string;
  readonly bodySize: number;
  readonly truncated: boolean;
}

/** A filter: a criterion left undefined matches every entry, as an absent one does. */
export interface JournalQuery {
  readonly operation?: string | undefined;
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly status?: number | undefined;
  readonly tenant?: TenantId | undefined;
  /** Only the last `limit` matching entries. */
  readonly limit?: number | undefined;
}

/**
 * What the pipeline hands the journal: what it already has (Node's header lines, the body bytes,
 * the arrival time as a number). The ring packs it (ring.ts); masking, decoding and dating wait
 * until someone reads the journal, so recording costs the hot path almost nothing.
 */
export interface RecordedMessage {
  /** A header object, or Node's `rawHeaders` lines (name, value, …) as received. */
  readonly headers: Readonly<Record<string, string | number | string[] | undefined>> | HeaderLines;
  readonly body: Buffer | string;
  /** The whole body's size when `body` was cut short on recording. */
  readonly size?: number;
}

export interface JournalRecord extends Omit<JournalEntry, 'sequence' | 'time' | 'operation' | 'validation' | 'fault' | 'violations' | 'request' | 'response'> {
  /** Date.now() when the request arrived. */
  readonly arrivedAt: number;
  // Handed over as the pipeline holds them, undefined when not reached; the entry leaves them out.
  readonly operation?: string | undefined;
  readonly validation?: ValidationOutcome | undefined;
  readonly fault?: string | undefined;
  readonly violations?: readonly ContractViolation[] | undefined;
  readonly request: RecordedMessage;
  readonly response: RecordedMessage;
  /** A journal that mirrors one shared by replicas (serve --store redis://…) takes the shared sequence; absent: its own next. */
  readonly sequence?: number | undefined;
}

export interface Journal {
  record(entry: JournalRecord): void;
  /** Matching entries, oldest first. */
  entries(query?: JournalQuery): JournalEntry[];
  /**
   * Requests of an operation whose JSON body contains `fields` (deep partial match), e.g.
   * `received('createPlant', { name: 'Monstera' })` — assert `.length === 1` for "exactly one".
   */
  received(operation: string, fields?: Readonly<Record<string, unknown>>, tenant?: TenantId): JournalEntry[];
  clear(tenant?: TenantId): void;
  /**
   * Calls `listener` with each entry recorded from now on, as `entries` would show it (the
   * inspector's live view). Entries are materialized at once only while someone listens.
   * Returns the function that stops it.
   */
  subscribe(listener: (entry: JournalEntry) => void): () => void;
  /** The most entries kept. */
  readonly capacity: number;
  /** The most bytes (kept bodies, request headers) the kept entries hold together. */
  readonly bytes: number;
  /**
   * A journal shared by replicas: resolves once this replica's records are in the shared store and
   * `entries` holds every replica's up to now; rejects when the store is unreachable. Absent: one process.
   */
  synced?(): Promise<void>;
}

export const JOURNAL_DEFAULTS = { capacity: 1000, bytes: 64 * 1024 * 1024, bodyLimitBytes: 4096 } as const;

export interface JournalOptions {
  /** The most bytes (kept bodies, request headers) the kept entries may hold together; the oldest go first. Default 64 MiB. */
  readonly bytes?: number;
  /** Which headers and query parameters hold credentials (the served document's API keys among them). */
  readonly credentials?: CredentialNames;
}

type Stored = JournalRecord & { readonly sequence: number };

/**
 * The last `capacity` requests in a ring, fewer when what they keep weighs more than
 * `options.bytes`; a capacity of 0 keeps none (and costs nothing per request).
 */
export function createJournal(capacity: number = JOURNAL_DEFAULTS.capacity, options: JournalOptions = {}): Journal {
  const credentials = options.credentials ?? WELL_KNOWN_CREDENTIAL_NAMES;
  const maxBytes = options.bytes ?? JOURNAL_DEFAULTS.bytes;
  const materialize = (stored: Stored) => materializeEntry(stored, credentials);
  // A fixed ring of packed records (ring.ts); `oldest` is where it starts, `count` how many it
  // holds, `bytes` their weight.
  const ring = createRecordRing(capacity, JOURNAL_DEFAULTS.bodyLimitBytes);
  let oldest = 0;
  let count = 0;
  let bytes = 0;
  let sequence = 0;
  const listeners = new Set<(entry: JournalEntry) => void>();
  const dropOldest = () => {
    bytes -= ring.charge(oldest);
    ring.free(oldest);
    oldest = (oldest + 1) % capacity;
    count -= 1;
  };
  /** The records that match `query`, oldest first: filtered on their fields, then unpacked. */
  const stored = (query: JournalQuery = {}): Stored[] => {
    const found: Stored[] = [];
    for (let offset = 0; offset < count; offset += 1) {
      const slot = (oldest + offset) % capacity;
      if (matches(ring.fields(slot), query)) found.push(ring.get(slot));
    }
    return found;
  };
  /** Packs `entry` as the newest record; the oldest go first, the new one too if it alone weighs more than the bound. */
  const keep = (entry: JournalRecord, keptSequence: number) => {
    if (count === capacity) dropOldest();
    bytes += ring.put((oldest + count) % capacity, entry, keptSequence);
    count += 1;
    while (bytes > maxBytes && count > 0) dropOldest();
  };
  const matches = (entry: Pick<Stored, 'operation' | 'method' | 'path' | 'status' | 'tenant'>, query: JournalQuery) =>
    (query.operation === undefined || entry.operation === query.operation) &&
    (query.method === undefined || entry.method === query.method.toUpperCase()) &&
    (query.path === undefined || entry.path === query.path) &&
    (query.status === undefined || entry.status === query.status) &&
    (query.tenant === undefined || entry.tenant === query.tenant);

  return {
    capacity,
    bytes: maxBytes,
    record(entry) {
      if (capacity === 0) return;
      sequence = entry.sequence ?? sequence + 1;
      keep(entry, sequence);
      if (listeners.size > 0) {
        const materialized = materialize({ ...entry, sequence });
        for (const listener of listeners) listener(materialized);
      }
    },
    subscribe(listener) {
      // A wrapper per call, so the same function subscribed twice is two subscriptions.
      const each = (entry: JournalEntry) => listener(entry);
      listeners.add(each);
      return () => listeners.delete(each);
    },
    entries(query = {}) {
      const found = stored(query);
      return (query.limit === undefined ? found : found.slice(Math.max(0, found.length - query.limit))).map(materialize);
    },
    received(operation, fields = {}, tenant) {
      return stored({ operation, tenant })
        .map(materialize)
        .filter((entry) => bodyContains(entry.request.body, fields));
    },
    clear(tenant) {
      const kept = tenant === undefined ? [] : stored().filter((entry) => entry.tenant !== tenant);
      while (count > 0) dropOldest();
      oldest = 0;
      for (const { sequence: keptSequence, ...entry } of kept) keep(entry, keptSequence);
    },
  };
}

/** A record as a reader sees it (credentials masked, bodies cut), before anyone reads it: what a shared journal stores. */
export function maskedEntry(record: JournalRecord, sequence: number, credentials: CredentialNames): JournalEntry {
  return materializeEntry({ ...record, sequence }, credentials);
}

function materializeEntry({ arrivedAt, request, response, ...entry }: Stored, credentials: CredentialNames): JournalEntry {
  // Fields recorded as undefined (no operation matched, validation not reached) are left out.
  const present = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as Omit<JournalEntry, 'time' | 'request' | 'response'>;
  return {
    ...present,
    query: maskQuery(entry.query, credentials),
    time: new Date(arrivedAt).toISOString(),
    request: journalMessage(request, credentials),
    response: journalMessage(response, credentials),
  };
}

/** A journal message: masked headers and the body cut to the journal's limit (as text). */
function journalMessage({ headers, body, size }: RecordedMessage, credentials: CredentialNames): JournalMessage {
  const limit = JOURNAL_DEFAULTS.bodyLimitBytes;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const bodySize = size ?? bytes.length;
  const text = bytes.subarray(0, limit).toString('utf8');
  const shown = Array.isArray(headers) ? headersOfLines(headers) : (headers as Exclude<RecordedMessage['headers'], HeaderLines>);
  return { headers: maskHeaders(shown, credentials), body: maskBody(text), bodySize, truncated: bodySize > limit };
}

function bodyContains(body: string, fields: Readonly<Record<string, unknown>>): boolean {
  if (Object.keys(fields).length === 0) return true;
  const parsed = readRequestJson(body);
  return parsed.ok && contains(parsed.value, fields);
}

/** Deep partial match; numbers and bigints compare by value so `{ id: 1 }` finds id 1. */
function contains(actual: JsonValue | undefined, expected: unknown): boolean {
  if ((typeof expected === 'number' || typeof expected === 'bigint') && (typeof actual === 'number' || typeof actual === 'bigint')) {
    const integral = (value: number | bigint) => typeof value === 'bigint' || Number.isInteger(value);
    // Integers compare exactly (a bigint id against a number id); anything else by value.
    return integral(expected) && integral(actual) ? BigInt(expected) === BigInt(actual) : expected === actual;
  }
  if (typeof expected !== 'object' || expected === null) return Object.is(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && contains((actual as Record<string, JsonValue>)[key], value));
}
