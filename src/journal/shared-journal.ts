/**
 * The request journal of every replica on one Redis (serve --store redis://…): each replica adds
 * the requests it answered to a capped Redis stream (XADD … MAXLEN ~ capacity), masked before they
 * leave the process, numbered by one shared sequence; each replica reads the stream back into its
 * own journal ring. So /__control/journal, its SSE stream and the inspector on any replica show
 * every replica's traffic, a clear through any replica clears it on all, and the bytes bound of
 * the ring holds as in one process. The stream is the only shared part: its length is the journal size.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { WELL_KNOWN_CREDENTIAL_NAMES } from '../auth/credential-names.js';
import type { RedisConnection } from '../store/redis/connection.js';
import { createJournal, maskedEntry, type Journal, type JournalEntry, type JournalOptions, type JournalRecord } from './journal.js';

/** Records on their way to Redis at once; beyond it a record is dropped (and the drop logged once) rather than held. */
const MAX_WRITES = 1000;

/** KEYS: stream, sequence. ARGV: the most entries kept (about), the entry's JSON. */
const RECORD = `
local n = redis.call('INCR', KEYS[2])
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'k', 'entry', 'n', n, 'e', ARGV[2])
return n`;

export interface SharedJournal extends Journal {
  /** Stops reading the stream. */
  close(): void;
}

export interface SharedJournalOptions extends JournalOptions {
  readonly onProblem?: (message: string) => void;
}

type StreamRows = [id: string, fields: string[]][];

export async function createSharedJournal(
  redis: RedisConnection,
  namespace: string,
  capacity: number,
  options: SharedJournalOptions = {},
): Promise<SharedJournal> {
  const local = createJournal(capacity, options);
  const credentials = options.credentials ?? WELL_KNOWN_CREDENTIAL_NAMES;
  const keys = [`${namespace}:journal`, `${namespace}:journal:sequence`];
  const stream = keys[0] as string;
  const writes = new Set<Promise<unknown>>();
  let failed: unknown;
  let dropped = false;
  let last: readonly [number, number] = [0, 0];
  let closed = false;

  const send = (lua: string, args: readonly string[], streamArgs?: readonly string[]) => {
    if (writes.size >= MAX_WRITES) {
      if (!dropped) options.onProblem?.(`journal: ${MAX_WRITES} records are waiting for the shared store; later ones are dropped until it catches up`);
      dropped = true;
      return;
    }
    const written = (
      streamArgs ? redis.call((client) => client.xadd(stream, 'MAXLEN', '~', String(capacity), '*', ...streamArgs)) : redis.script(lua, keys, args)
    ).then(
      () => (dropped = false),
      (error: unknown) => {
        // A clear must say it failed (its caller answers 503); a request's record is lost with the store, as its change was.
        if (streamArgs) failed = error;
      },
    );
    writes.add(written);
    void written.finally(() => writes.delete(written));
  };

  function apply(rows: StreamRows | undefined): void {
    for (const [id, fields] of rows ?? []) {
      const at = idOf(id);
      if (at[0] < last[0] || (at[0] === last[0] && at[1] <= last[1])) continue;
      last = at;
      const value = (name: string) => fields[fields.indexOf(name) + 1];
      if (value('k') === 'clear') local.clear(value('t') || undefined);
      else {
        try {
          local.record(recordOf(JSON.parse(value('e') ?? '{}') as JournalEntry, Number(value('n'))));
        } catch {
          // An entry that does not parse was not written by a replica; it is left out.
        }
      }
    }
  }

  const backlog = (await redis.call((client) => client.xrevrange(stream, '+', '-', 'COUNT', Math.max(1, capacity)))) as StreamRows;
  apply(backlog.reverse());

  async function tail(reader: Redis): Promise<void> {
    while (!closed) {
      try {
        const read = (await reader.xread('COUNT', 500, 'BLOCK', 1000, 'STREAMS', stream, `${last[0]}-${last[1]}`)) as [string, StreamRows][] | null;
        apply(read?.[0]?.[1]);
      } catch {
        if (!closed) await sleep(500, undefined, { ref: false });
      }
    }
  }
  const reader = capacity > 0 ? redis.duplicate() : undefined;
  if (reader) void tail(reader);

  return {
    capacity: local.capacity,
    bytes: local.bytes,
    record(record: JournalRecord) {
      if (capacity === 0) return;
      const { sequence: _unused, ...entry } = maskedEntry(record, 0, credentials);
      send(RECORD, [String(capacity), JSON.stringify(entry)]);
    },
    entries: (query) => local.entries(query),
    received: (operation, fields, tenant) => local.received(operation, fields, tenant),
    subscribe: (listener) => local.subscribe(listener),
    clear(tenant) {
      send('', [], ['k', 'clear', 't', tenant ?? '']);
    },
    async synced() {
      await Promise.all([...writes]);
      const error = failed;
      failed = undefined;
      if (error !== undefined) throw error;
      const read = (await redis.call((client) => client.xread('COUNT', 100_000, 'STREAMS', stream, `${last[0]}-${last[1]}`))) as [string, StreamRows][] | null;
      apply(read?.[0]?.[1]);
    },
    close() {
      closed = true;
      reader?.disconnect();
    },
  };
}

function idOf(id: string): readonly [number, number] {
  const [ms = '0', sequence = '0'] = id.split('-');
  return [Number(ms), Number(sequence)];
}

/** An entry read back as the ring takes it: already masked and cut, with the shared sequence. */
function recordOf(entry: JournalEntry, sequence: number): JournalRecord {
  const { time, request, response, sequence: _unused, ...rest } = entry;
  return {
    ...rest,
    sequence,
    arrivedAt: Date.parse(time),
    request: { headers: request.headers, body: request.body, size: request.bodySize },
    response: { headers: response.headers, body: response.body, size: response.bodySize },
  };
}
