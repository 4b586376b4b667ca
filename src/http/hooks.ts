import { ERRORS } from '../core/errors.js';
import type { Journal } from '../journal/journal.js';
import { LOG_LEVELS, type Logger } from '../log/logger.js';
import type { RequestContext, ResponseHook } from './context.js';

/** Whether the logger writes request lines (info and debug); below info a request hook would build entries for nothing. */
export function logsRequests(logger: Logger): boolean {
  return LOG_LEVELS.indexOf(logger.level) >= LOG_LEVELS.indexOf('info');
}

/**
 * One log line per request: never its headers, query or body. A refusal says why (the table's code
 * and the Error's message); at debug level every violation validation found follows it.
 */
export function logRequest(logger: Logger): ResponseHook {
  const debug = logger.level === 'debug';
  return (context) => {
    const { refusal, validation } = context;
    const details = debug ? (refusal?.details ?? (validation?.ok === false ? [validation.message] : undefined)) : undefined;
    logger.request({
      method: context.method,
      path: context.path,
      status: context.status,
      durationMs: context.durationMs,
      operation: context.operation?.name,
      tenant: context.tenant,
      error: refusal && { code: ERRORS[refusal.entry].code, message: refusal.logMessage ?? refusal.message },
      fault: context.fault,
      details,
    });
  };
}

/** The request journal: references to what the context holds; masking and decoding wait for a reader. */
export function recordJournal(journal: Journal): ResponseHook {
  return (context: RequestContext) =>
    journal.record({
      arrivedAt: context.arrivedAt,
      tenant: context.tenant,
      operation: context.operation?.name,
      method: context.method,
      path: context.path,
      query: context.query,
      status: context.status,
      durationMs: context.durationMs,
      validation: context.validation,
      fault: context.fault,
      violations: context.violations,
      // Node's header lines, not its header object: one text in the journal's ring (ring.ts).
      request: { headers: context.request.rawHeaders, body: context.body },
      response: context.response ?? NOTHING_SENT,
    });
}

const NOTHING_SENT = Object.freeze({ headers: Object.freeze({}), body: '' });
