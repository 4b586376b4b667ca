/**
 * Delivers the document's webhooks after a create: POST (or the webhook's method) of the payload to
 * the --webhook URL, retried with exponential backoff and jitter while the receiver is unreachable or
 * answers 408/425/429/5xx (Retry-After honoured up to the longest delay), given up after the last
 * attempt. Deliveries never hold up the answer to the create that caused them, carry no credential
 * of the stand-in's clients, and the last `history` are kept for the control API. At most
 * `maxPending` wait at once; a delivery beyond that is dropped, counted and reported (onDropped).
 */
import { toJsonText, type JsonValue } from '../core/json/exact-json.js';
import { attempt as sendAttempt } from './attempt.js';
import type { WebhookPayload } from './payload.js';
import { WEBHOOK_LIMITS } from './limits.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Per attempt, from sending to the status and the first few KiB of the answer. */
  readonly timeoutMs: number;
}

export const WEBHOOK_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 250, maxDelayMs: 10_000, timeoutMs: 5_000 };

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'invalid' | 'dropped';

export interface WebhookDelivery {
  readonly id: number;
  readonly webhook: string;
  readonly resource: string;
  readonly tenant: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** The last answer's status. */
  readonly status?: number;
  /** Why the last attempt failed, or why the payload was not sent. */
  readonly error?: string;
  readonly createdAt: string;
  readonly finishedAt?: string;
}

/** One attempt, as the journal records it. */
export interface WebhookAttempt {
  readonly webhook: string;
  readonly tenant: string;
  readonly method: string;
  readonly url: URL;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly body: string };
  /** Absent when no answer came (connection refused, time-out). */
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly body: string };
  readonly error?: string;
}

export interface WebhookSenderOptions {
  readonly url: URL;
  /** The document's webhooks that have a payload, by name. */
  readonly payloads: ReadonlyMap<string, WebhookPayload>;
  readonly retry?: RetryPolicy;
  /** Told of every attempt (the server journals it). */
  readonly onAttempt?: (attempt: WebhookAttempt) => void;
  /** Deliveries shown by the control API, the last ones whatever their state; the oldest go first. Default 200. */
  readonly history?: number;
  /** Deliveries waiting at once; beyond it a new one is dropped (and says so). Default 1,000. */
  readonly maxPending?: number;
  /** Told of each delivery dropped because `maxPending` were waiting (the server warns, rate-limited). */
  readonly onDropped?: (delivery: WebhookDelivery) => void;
  /**
   * Told of every change of a delivery (queued, an attempt that will be retried, its end), with
   * how many wait now in this sender: serve --store redis://… keeps every replica's deliveries in one place.
   */
  readonly onChange?: (delivery: WebhookDelivery, first: boolean, pending: number) => void;
}

/** How many deliveries wait now and how many were dropped since the start, with the caps in force. */
export interface WebhookCounts {
  readonly pending: number;
  readonly dropped: number;
  readonly maxPending: number;
  readonly history: number;
}

export interface WebhookSender {
  /** Queues a delivery of each named webhook for the item just created; returns at once. */
  notify(webhooks: readonly string[], resource: string, fields: Readonly<Record<string, JsonValue>>, tenant: string): void;
  /** The last `history` deliveries, oldest first. */
  deliveries(): readonly WebhookDelivery[];
  counts(): WebhookCounts;
  /** Stops retrying and aborts attempts in flight; pending deliveries end as failed. */
  close(): Promise<void>;
}

const RETRIED = new Set([408, 425, 429]);

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const retry = options.retry ?? WEBHOOK_RETRY;
  const history = options.history ?? WEBHOOK_LIMITS.history;
  const maxPending = options.maxPending ?? WEBHOOK_LIMITS.maxPending;
  const kept: Array<{ -readonly [K in keyof WebhookDelivery]: WebhookDelivery[K] }> = [];
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  let nextId = 1;
  let pending = 0;
  let dropped = 0;

  function remember(delivery: (typeof kept)[number]): void {
    kept.push(delivery);
    // The shown history is the last `history` deliveries, pending ones included: a pending
    // delivery that leaves it still runs (its attempts are journaled) and counts in `pending`.
    if (kept.length > history) kept.splice(0, kept.length - history);
  }

  const tell = (delivery: (typeof kept)[number], first = false) => options.onChange?.({ ...delivery }, first, pending);

  function finish(delivery: (typeof kept)[number], state: DeliveryState, error?: string): void {
    delivery.state = state;
    if (error !== undefined) delivery.error = error;
    delivery.finishedAt = new Date().toISOString();
  }

  async function deliver(delivery: (typeof kept)[number], payload: WebhookPayload, body: string): Promise<void> {
    const headers = { 'content-type': payload.mediaType, 'user-agent': 'plantstore-webhook', 'plantstore-webhook': payload.name };
    for (let attempt = 1; attempt <= retry.attempts && !abort.signal.aborted; attempt += 1) {
      delivery.attempts = attempt;
      const startedAt = Date.now();
      const answer = await sendAttempt({ url: options.url, method: payload.method, headers, body, timeoutMs: retry.timeoutMs, signal: abort.signal });
      options.onAttempt?.({
        webhook: payload.name,
        tenant: delivery.tenant,
        method: payload.method.toUpperCase(),
        url: options.url,
        startedAt,
        durationMs: Date.now() - startedAt,
        request: { headers, body },
        ...answer,
      });
      if ('response' in answer) {
        const { status } = answer.response;
        delivery.status = status;
        if (status >= 200 && status < 300) return finish(delivery, 'delivered');
        if (!RETRIED.has(status) && status < 500) return finish(delivery, 'failed', `the receiver refused it with ${status}`);
        delivery.error = `the receiver answered ${status}`;
      } else {
        delivery.error = answer.error;
      }
      const retryAfter = 'response' in answer ? answer.response.headers['retry-after'] : undefined;
      if (attempt < retry.attempts) {
        tell(delivery);
        await sleep(delayBefore(attempt, retry, retryAfter), abort.signal);
      }
    }
    finish(delivery, 'failed', `gave up after ${delivery.attempts} attempts: ${delivery.error ?? 'closed'}`);
  }

  return {
    notify(webhooks, resource, fields, tenant) {
      for (const name of webhooks) {
        const payload = options.payloads.get(name);
        if (payload === undefined) continue;
        const delivery: (typeof kept)[number] = {
          id: nextId++,
          webhook: name,
          resource,
          tenant,
          state: 'pending',
          attempts: 0,
          createdAt: new Date().toISOString(),
        };
        remember(delivery);
        const value = payload.shape(fields);
        const invalid = payload.check(value);
        if (invalid !== undefined) {
          finish(delivery, 'invalid', `the payload breaks the document's schema for webhook ${name}, so it was not sent: ${invalid}`);
          tell(delivery, true);
          continue;
        }
        if (pending >= maxPending || abort.signal.aborted) {
          dropped += 1;
          finish(delivery, 'dropped', abort.signal.aborted ? 'the server is closing' : `${maxPending} deliveries were already waiting (the most at once)`);
          tell(delivery, true);
          if (!abort.signal.aborted) options.onDropped?.(delivery);
          continue;
        }
        pending += 1;
        tell(delivery, true);
        const running = deliver(delivery, payload, toJsonText(value)).finally(() => {
          pending -= 1;
          inFlight.delete(running);
          tell(delivery);
        });
        inFlight.add(running);
      }
    },
    deliveries: () => kept.map((delivery) => ({ ...delivery })),
    counts: () => ({ pending, dropped, maxPending, history }),
    async close() {
      abort.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** Exponential backoff with equal jitter; a Retry-After in seconds wins, within the longest delay. */
export function delayBefore(attempt: number, retry: RetryPolicy, retryAfter?: string | string[]): number {
  const seconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  if (seconds !== undefined) return Math.min(seconds * 1000, retry.maxDelayMs);
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
