import type { JournalRecord } from '../journal/journal.js';
import type { WebhookAttempt } from './sender.js';

/**
 * A delivery attempt as a journal entry, beside the requests the stand-in answered: its operation
 * is "webhook <name>", its status the receiver's (0 when no answer came, as HAR has it), and the
 * request's Host is the receiver's, so the HAR export shows where it went.
 */
export function journalRecordOf(attempt: WebhookAttempt): JournalRecord {
  return {
    tenant: attempt.tenant,
    arrivedAt: attempt.startedAt,
    operation: `webhook ${attempt.webhook}`,
    method: attempt.method,
    path: attempt.url.pathname,
    query: attempt.url.search.replace(/^\?/, ''),
    status: attempt.response?.status ?? 0,
    durationMs: attempt.durationMs,
    request: { headers: { host: attempt.url.host, ...attempt.request.headers }, body: attempt.request.body },
    response: attempt.response ? { headers: attempt.response.headers, body: attempt.response.body } : { headers: {}, body: attempt.error ?? '' },
  };
}
