import { errorMessage } from '../core/errors.js';
import type { Answer } from '../http/answer.js';
import type { Journal, JournalEntry } from '../journal/journal.js';
import type { TenantId } from '../store/tenants.js';
import type { Logger } from '../log/logger.js';
import { throttledCount } from '../log/throttle.js';
import { caughtUp, refused } from './answers.js';
import type { ControlContext, ControlHandler } from './context.js';
import { journalQuery } from './journal.js';

/** The most journal streams open at once: each holds a connection, and a forgotten tab should not hold many. */
export const MAX_JOURNAL_STREAMS = 16;
/** Entries a new stream starts with when the client names no `limit`. */
export const STREAM_BACKLOG = 200;
/** Bytes a stream may have waiting for its reader by default (--journal-stream-bytes). */
export const JOURNAL_STREAM_LIMITS = { queueBytes: 1024 * 1024 } as const;
/** A comment line this often keeps proxies and the browser from timing an idle stream out. */
const HEARTBEAT_MS = 15_000;
/** After its last event, a dropped reader has this long to take what waits before the connection is closed. */
const DROP_GRACE_MS = 10_000;

/** The open journal streams, so the server can end them when it closes instead of waiting on them. */
export interface JournalStreams {
  readonly max: number;
  /** Bytes one stream may have waiting for its reader; past it the reader is dropped. */
  readonly queueBytes: number;
  /** How many are open. */
  readonly size: number;
  /** Registers a stream's `end`; undefined when `max` are open. Returns what unregisters it. */
  add(end: () => void): (() => void) | undefined;
  /** A reader fell behind and was dropped (warned of, at most every 10 s). */
  dropped(): void;
  /** Ends every open stream (the server is closing). */
  closeAll(): void;
}

export interface JournalStreamOptions {
  readonly queueBytes?: number;
  readonly logger?: Logger;
}

export function createJournalStreams(max: number = MAX_JOURNAL_STREAMS, options: JournalStreamOptions = {}): JournalStreams {
  const open = new Set<() => void>();
  const queueBytes = options.queueBytes ?? JOURNAL_STREAM_LIMITS.queueBytes;
  const drops = throttledCount(
    (count) =>
      options.logger?.warn(
        `journal stream: ${count} reader${count === 1 ? '' : 's'} fell behind by more than ${queueBytes} bytes (--journal-stream-bytes) and ${count === 1 ? 'was' : 'were'} dropped`,
      ),
    10_000,
  );
  return {
    max,
    queueBytes,
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
    dropped: () => drops.add(),
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
        end = () => sink.end();
        follow(sink, control.journal, { scope, limit }, streams, unregister);
      },
    },
  };
};

type Sink = Parameters<NonNullable<Answer['stream']>>[0];

/**
 * The backlog, then each new entry while the reader keeps up. One that falls `queueBytes` behind
 * is told why (a last `dropped` event) and let go, so a stalled tab cannot grow the server; it has
 * DROP_GRACE_MS to take what waits before its connection is closed.
 */
function follow(
  sink: Sink,
  journal: Journal,
  { scope, limit }: { scope: TenantId | undefined; limit: number },
  streams: JournalStreams,
  unregister: () => void,
): void {
  let dropped = false;
  // Backlog and subscription in one turn, so no entry falls between them.
  for (const text of backlogWithin(journal.entries({ tenant: scope, limit }), streams.queueBytes - sink.queued())) sink.write(text);
  const unsubscribe = journal.subscribe((entry) => {
    if (inScope(entry, scope)) send(eventText(entry));
  });
  const heartbeat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  function stop(): void {
    clearInterval(heartbeat);
    unsubscribe();
  }
  function send(text: string): void {
    if (dropped) return;
    if (sink.queued() + Buffer.byteLength(text) <= streams.queueBytes) {
      sink.write(text);
      return;
    }
    dropped = true;
    stop();
    sink.write(droppedText(streams.queueBytes));
    sink.end();
    setTimeout(() => sink.destroy(), DROP_GRACE_MS).unref();
    streams.dropped();
  }
  sink.onClose(() => {
    stop();
    unregister();
  });
}

/** The backlog's events, the newest that fit in `bytes` (a large journal must not overrun a new stream). */
function backlogWithin(entries: readonly JournalEntry[], bytes: number): string[] {
  const texts: string[] = [];
  let room = bytes;
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const text = eventText(entries[index] as JournalEntry);
    room -= Buffer.byteLength(text);
    if (room < 0) break;
    texts.push(text);
  }
  return texts.reverse();
}

/** The last event of a dropped stream: why it ends. */
function droppedText(queueBytes: number): string {
  const reason = `this reader fell more than ${queueBytes} bytes behind the journal (--journal-stream-bytes); reconnect to start again from the backlog`;
  return `event: dropped\ndata: ${JSON.stringify({ reason })}\n\n`;
}

function inScope(entry: JournalEntry, scope: TenantId | undefined): boolean {
  return scope === undefined || entry.tenant === scope;
}

/** One SSE event; JSON.stringify writes no line breaks, so the data is one line. */
export function eventText(entry: JournalEntry): string {
  return `id: ${entry.sequence}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
}
