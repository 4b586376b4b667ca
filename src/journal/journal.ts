import { parseExactJson, type ExactJson } from '../validation/exact-json.js';
import type { TenantId } from '../store/tenants.js';

/** How validation went: not reached (routing or auth refused first), passed, or the violations. */
export type ValidationOutcome = { readonly ok: true } | { readonly ok: false; readonly error: number; readonly message: string };

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
  readonly query: string;
  readonly status: number;
  readonly durationMs: number;
  readonly validation?: ValidationOutcome;
  /** Name of the fault that shaped the answer, if one did. */
  readonly fault?: string;
  readonly request: JournalMessage;
  readonly response: JournalMessage;
}

export interface JournalMessage {
  /** Credentials masked: an Authorization header shows its scheme only. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text, cut at the journal's body limit. */
  readonly body: string;
  readonly bodySize: number;
  readonly truncated: boolean;
}

export interface JournalQuery {
  readonly operation?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly tenant?: TenantId;
  /** Only the last `limit` matching entries. */
  readonly limit?: number;
}

export interface Journal {
  record(entry: Omit<JournalEntry, 'sequence'>): void;
  /** Matching entries, oldest first. */
  entries(query?: JournalQuery): JournalEntry[];
  /**
   * Requests of an operation whose JSON body contains `fields` (deep partial match), e.g.
   * `received('createPlant', { name: 'Monstera' })` — assert `.length === 1` for "exactly one".
   */
  received(operation: string, fields?: Readonly<Record<string, unknown>>, tenant?: TenantId): JournalEntry[];
  clear(tenant?: TenantId): void;
  readonly capacity: number;
}

export const JOURNAL_DEFAULTS = { capacity: 1000, bodyLimitBytes: 4096 } as const;

/** The last `capacity` requests in a ring; 0 keeps none (and costs nothing per request). */
export function createJournal(capacity: number = JOURNAL_DEFAULTS.capacity): Journal {
  let ring: JournalEntry[] = [];
  let sequence = 0;
  const matches = (entry: JournalEntry, query: JournalQuery) =>
    (query.operation === undefined || entry.operation === query.operation) &&
    (query.method === undefined || entry.method === query.method.toUpperCase()) &&
    (query.path === undefined || entry.path === query.path) &&
    (query.status === undefined || entry.status === query.status) &&
    (query.tenant === undefined || entry.tenant === query.tenant);

  return {
    capacity,
    record(entry) {
      if (capacity === 0) return;
      sequence += 1;
      ring.push({ sequence, ...entry });
      if (ring.length > capacity) ring = ring.slice(ring.length - capacity);
    },
    entries(query = {}) {
      const found = ring.filter((entry) => matches(entry, query));
      return query.limit === undefined ? found : found.slice(Math.max(0, found.length - query.limit));
    },
    received(operation, fields = {}, tenant) {
      return ring.filter((entry) => matches(entry, { operation, tenant }) && bodyContains(entry.request.body, fields));
    },
    clear(tenant) {
      ring = tenant === undefined ? [] : ring.filter((entry) => entry.tenant !== tenant);
    },
  };
}

/** A journal message: masked headers and the body cut to `limit` bytes (as text). */
export function journalMessage(headers: Readonly<Record<string, string | number | string[] | undefined>>, body: Buffer | string, limit: number = JOURNAL_DEFAULTS.bodyLimitBytes): JournalMessage {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    masked[name] = SECRET_HEADERS.has(name.toLowerCase()) ? maskCredentials(text) : text;
  }
  return { headers: masked, body: bytes.subarray(0, limit).toString('utf8'), bodySize: bytes.length, truncated: bytes.length > limit };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'plantstore-token']);

function maskCredentials(value: string): string {
  const space = value.indexOf(' ');
  return space === -1 ? '***' : `${value.slice(0, space)} ***`;
}

function bodyContains(body: string, fields: Readonly<Record<string, unknown>>): boolean {
  if (Object.keys(fields).length === 0) return true;
  const parsed = parseExactJson(body);
  return parsed.ok && contains(parsed.value, fields);
}

/** Deep partial match; numbers and bigints compare by value so `{ id: 1 }` finds id 1. */
function contains(actual: ExactJson | undefined, expected: unknown): boolean {
  if ((typeof expected === 'number' || typeof expected === 'bigint') && (typeof actual === 'number' || typeof actual === 'bigint')) {
    const integral = (value: number | bigint) => typeof value === 'bigint' || Number.isInteger(value);
    // Integers compare exactly (a bigint id against a number id); anything else by value.
    return integral(expected) && integral(actual) ? BigInt(expected) === BigInt(actual) : expected === actual;
  }
  if (typeof expected !== 'object' || expected === null) return Object.is(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && contains((actual as Record<string, ExactJson>)[key], value));
}
