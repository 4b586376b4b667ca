import { errorMessage } from '../core/errors.js';
import type { JournalEntry } from '../journal/journal.js';
import type { TenantId } from '../store/tenants.js';
import { caughtUp, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import { journalQuery } from './journal.js';

/** The most journal streams open at once: each holds a connection, and a forgotten tab should not hold many. */
export const MAX_JOURNAL_STREAMS = 16;
/** Entries a new stream starts with when the client names no `limit`. */
export const STREAM_BACKLOG = 200;
/** A comment line this often keeps proxies and the browser from timing an idle stream out. */
const HEARTBEAT_MS = 15_000;

/** The open journal streams, so the server can end them when it closes instead of waiting on them. */
export interface JournalStreams {
  readonly max: number;
  /** How many are open. */
  readonly size: number;
  /** Registers a stream's `end`; undefined when `max` are open. Returns what unregisters it. */
  add(end: () => void): (() => void) | undefined;
  /** Ends every open stream (the server is closing). */
  closeAll(): void;
}

export function createJournalStreams(max: number = MAX_JOURNAL_STREAMS): JournalStreams {
  const open = new Set<() => void>();
  return {
    max,
    get size() {
      return open.size;
    },
    add(end) {
      if (open.size >= max) return undefined;
      // A wrapper per stream, so two streams never share an entry.
      const entry = () => end();
      open.add(entry);
      return () => open.delete(entry);
    },
    closeAll() {
      for (const end of [...open]) end();
      open.clear();
    },
  };
}

// A context built without streams (tests that compose the control site by hand) gets its own set.
const fallbackStreams = new WeakMap<ControlContext, JournalStreams>();

function streamsOf(control: ControlContext): JournalStreams {
  if (control.journalStreams) return control.journalStreams;
  let streams = fallbackStreams.get(control);
  if (!streams) fallbackStreams.set(control, (streams = createJournalStreams()));
  return streams;
}

/**
 * The journal as server-sent events: the last `limit` entries (default 200) the tenant may see,
 * then each new one as it is recorded, every one an `entry` event whose data is the entry's JSON,
 * as listJournal writes it, with its sequence as the event id.
 */
export const streamJournal: ControlHandler = async (request, control) => {
  const query = journalQuery(request, control);
  if (!query.ok) return query.refusal;
  // A journal shared by replicas: the backlog holds every replica's requests up to now.
  const behind = await caughtUp(control.journal.synced?.bind(control.journal));
  if (behind) return behind;
  const streams = streamsOf(control);
  let end = () => {};
  const unregister = streams.add(() => end());
  if (!unregister) {
    return refused('tooManyStreams', errorMessage('tooManyStreams', `${streams.max} are open; close another inspector tab or stream and retry`));
  }
  const scope = query.query.tenant;
  const limit = query.query.limit ?? STREAM_BACKLOG;
  return {
    ok: true,
    answer: {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      body: 'retry: 2000\n\n',
      stream: (sink) => {
        // Backlog and subscription in one turn, so no entry falls between them.
        for (const entry of control.journal.entries({ tenant: scope, limit })) sink.write(eventText(entry));
        const unsubscribe = control.journal.subscribe((entry) => {
          if (inScope(entry, scope)) sink.write(eventText(entry));
        });
        const heartbeat = setInterval(() => sink.write(': still here\n\n'), HEARTBEAT_MS);
        heartbeat.unref();
        end = () => sink.end();
        sink.onClose(() => {
          clearInterval(heartbeat);
          unsubscribe();
          unregister();
        });
      },
    },
  };
};

function inScope(entry: JournalEntry, scope: TenantId | undefined): boolean {
  return scope === undefined || entry.tenant === scope;
}

/** One SSE event; JSON.stringify writes no line breaks, so the data is one line. */
export function eventText(entry: JournalEntry): string {
  return `id: ${entry.sequence}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
}
