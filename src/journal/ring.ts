/**
 * The journal's records packed into columns: numbers in one Float64Array, references in one array,
 * and no object of its own per record. Why: a record kept as handed over was about sixteen heap
 * objects (the record, its two messages, Node's header object, the body's Buffer and ArrayBuffer,
 * boxed numbers …) that every young-generation collection copied, and under load promoted; with the
 * default 1,000 entries that cost a fifth of `POST /plants`'s throughput (docs/performance.md,
 * twelfth look). Packed, a request keeps a few strings: its path, its header lines as one text, its
 * body's bytes as one latin1 text (one character a byte, so nothing is lost), and the answer's
 * header object and body, which the answer made anyway.
 */
import type { JournalRecord, RecordedMessage } from './journal.js';

/** Node's `rawHeaders`: name, value, name, value … as received. */
export type HeaderLines = readonly string[];

// Numbers: when the request arrived, how long it took, the status, the sequence number, the two
// bodies' whole sizes (NaN: not given), what the record weighs against the byte bound.
const ARRIVED = 0;
const DURATION = 1;
const STATUS = 2;
const SEQUENCE = 3;
const REQUEST_SIZE = 4;
const RESPONSE_SIZE = 5;
const CHARGE = 6;
const NUMBERS = 7;

// References, in this order.
const FIELDS = ['tenant', 'operation', 'method', 'path', 'query', 'validation', 'fault', 'violations'] as const;
const REQUEST_HEAD = FIELDS.length;
const REQUEST_BODY = REQUEST_HEAD + 1;
const RESPONSE_HEAD = REQUEST_HEAD + 2;
const RESPONSE_BODY = REQUEST_HEAD + 3;
const REFERENCES = REQUEST_HEAD + 4;

// Which bodies are kept as bytes (latin1 text) rather than as the text they were handed over as.
const REQUEST_BYTES = 1;
const RESPONSE_BYTES = 2;

export interface RecordRing {
  /** Packs `record` into `slot` (dropping what the slot held) and returns what it weighs. */
  put(slot: number, record: JournalRecord, sequence: number): number;
  /** The record in `slot` again (header lines as lines, bytes as a Buffer), with its sequence. */
  get(slot: number): JournalRecord & { readonly sequence: number };
  /** The record's fields a query filters on, without unpacking its messages. */
  fields(slot: number): Pick<JournalRecord, (typeof FIELDS)[number] | 'status'>;
  /** What the record in `slot` weighs. */
  charge(slot: number): number;
  /** Lets go of what `slot` holds. */
  free(slot: number): void;
}

/**
 * `capacity` slots; a body is kept up to `bodyLimit` bytes (its whole size noted beside it).
 * A record's weight: the body bytes it keeps and its request header text.
 */
export function createRecordRing(capacity: number, bodyLimit: number): RecordRing {
  const numbers = new Float64Array(capacity * NUMBERS);
  const references: unknown[] = new Array<unknown>(capacity * REFERENCES).fill(undefined);
  const kinds = new Uint8Array(capacity);

  /**
   * Keeps a body at `reference` and its whole size at `number`; true when it is kept as bytes. Bytes
   * become latin1 text, one character a byte; a text is kept as it is unless it is over the limit.
   */
  const packBody = ({ body, size }: RecordedMessage, reference: number, number: number): boolean => {
    if (typeof body === 'string' && body.length <= bodyLimit) {
      references[reference] = body;
      numbers[number] = size ?? Number.NaN;
      return false;
    }
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    references[reference] = bytes.toString('latin1', 0, Math.min(bytes.length, bodyLimit));
    numbers[number] = size ?? bytes.length;
    return true;
  };

  return {
    put(slot, record, sequence) {
      const r = slot * REFERENCES;
      // Written out, not looped over FIELDS: a loop's keyed reads of the record are megamorphic.
      references[r] = record.tenant;
      references[r + 1] = record.operation;
      references[r + 2] = record.method;
      references[r + 3] = record.path;
      references[r + 4] = record.query;
      references[r + 5] = record.validation;
      references[r + 6] = record.fault;
      references[r + 7] = record.violations;
      const head = packedHead(record.request.headers);
      references[r + REQUEST_HEAD] = head;
      references[r + RESPONSE_HEAD] = record.response.headers;
      const n = slot * NUMBERS;
      numbers[n + ARRIVED] = record.arrivedAt;
      numbers[n + DURATION] = record.durationMs;
      numbers[n + STATUS] = record.status;
      numbers[n + SEQUENCE] = sequence;
      const request = packBody(record.request, r + REQUEST_BODY, n + REQUEST_SIZE);
      const response = packBody(record.response, r + RESPONSE_BODY, n + RESPONSE_SIZE);
      kinds[slot] = (request ? REQUEST_BYTES : 0) | (response ? RESPONSE_BYTES : 0);
      const charge =
        (references[r + REQUEST_BODY] as string).length +
        (references[r + RESPONSE_BODY] as string).length +
        (typeof head === 'string' ? head.length : headerLength(head));
      numbers[n + CHARGE] = charge;
      return charge;
    },
    fields(slot) {
      const r = slot * REFERENCES;
      const field = Object.fromEntries(FIELDS.map((name, index) => [name, references[r + index]])) as Pick<JournalRecord, (typeof FIELDS)[number]>;
      return { ...field, status: numbers[slot * NUMBERS + STATUS] as number };
    },
    get(slot) {
      const n = slot * NUMBERS;
      const r = slot * REFERENCES;
      const head = references[r + REQUEST_HEAD] as string | RecordedMessage['headers'];
      return {
        ...this.fields(slot),
        arrivedAt: numbers[n + ARRIVED] as number,
        durationMs: numbers[n + DURATION] as number,
        sequence: numbers[n + SEQUENCE] as number,
        request: unpacked(
          typeof head === 'string' ? linesOf(head) : head,
          references[r + REQUEST_BODY] as string,
          (kinds[slot] as number) & REQUEST_BYTES,
          numbers[n + REQUEST_SIZE] as number,
        ),
        response: unpacked(
          references[r + RESPONSE_HEAD] as RecordedMessage['headers'],
          references[r + RESPONSE_BODY] as string,
          (kinds[slot] as number) & RESPONSE_BYTES,
          numbers[n + RESPONSE_SIZE] as number,
        ),
      };
    },
    charge: (slot) => numbers[slot * NUMBERS + CHARGE] as number,
    free(slot) {
      references.fill(undefined, slot * REFERENCES, (slot + 1) * REFERENCES);
    },
  };
}

/** Header lines as one text (Node admits no line break inside a header); a header object as it is. */
function packedHead(headers: RecordedMessage['headers']): string | RecordedMessage['headers'] {
  return isLines(headers) ? headers.join('\n') : headers;
}

function isLines(headers: RecordedMessage['headers']): headers is HeaderLines {
  return Array.isArray(headers);
}

function linesOf(text: string): HeaderLines {
  return text === '' ? [] : text.split('\n');
}

function unpacked(headers: RecordedMessage['headers'], text: string, bytes: number, size: number): RecordedMessage {
  const body = bytes === 0 ? text : Buffer.from(text, 'latin1');
  return Number.isNaN(size) ? { headers, body } : { headers, body, size };
}

/** A header object's text length: what a record made elsewhere (a webhook attempt, a shared entry) weighs. */
function headerLength(headers: RecordedMessage['headers']): number {
  let length = 0;
  // for…in, not Object.entries: a replica mirrors every entry of a shared journal through here.
  for (const name in headers) {
    const value = (headers as Record<string, string | number | string[] | undefined>)[name];
    length += name.length + (typeof value === 'string' ? value.length : Array.isArray(value) ? value.join('').length : String(value ?? '').length);
  }
  return length;
}

/**
 * Header lines as the journal shows them: names lower-cased as Node does, a header sent more than
 * once keeping every value (masking reads each one).
 */
export function headersOfLines(lines: HeaderLines): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let index = 0; index + 1 < lines.length; index += 2) {
    const name = (lines[index] as string).toLowerCase();
    const value = lines[index + 1] as string;
    const seen = Object.hasOwn(headers, name) ? headers[name] : undefined;
    const shown = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
    // A client may send a header named __proto__: it becomes an own key, never the prototype.
    if (name === '__proto__') Object.defineProperty(headers, name, { value: shown, enumerable: true, writable: true, configurable: true });
    else headers[name] = shown;
  }
  return headers;
}
