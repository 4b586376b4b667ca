/**
 * Every error plantstore names, in one table (the idea of fastify's lib/errors.js): its stable code,
 * the `error` number of the document's Error body when it is answered over HTTP, the HTTP status
 * rule, a message template (util.format: %s is the detail), and the exit code of a command it ends.
 *
 * Status rules: 'declared' is chosen by meaning among the statuses the operation declares (see
 * statusOf; 400 for everything the Plant Store refuses); a number is the status always. statusOf applies them, for every refusal: the pipeline's stages, the answers written on
 * a raw socket (malformed HTTP, CONNECT) and faults. docs/errors.md's "Error codes" table is checked
 * against this one (test/core/error-table-readme.unit.test.ts).
 */
import { format } from 'node:util';

/** The exit codes of `plantstore serve` and `plantstore verify`. */
export const EXIT_CODES = {
  ok: 0,
  /** verify: the target does not conform. */
  nonConforming: 1,
  /** A usage or set-up error: bad flags, an unusable document, config or target, a busy port. */
  setup: 2,
  /** verify: the run ended without a verdict (its time budget spent, an internal error); a signal N ends it with 128+N. */
  incomplete: 3,
} as const;

/** How a refusal's HTTP status is chosen: see the header. */
export type StatusRule = 'declared' | number;

export interface ErrorEntry {
  readonly code: string;
  /** The `error` number of the Error body ({error, message}); only for refusals answered over HTTP. */
  readonly error?: number;
  /** Present on refusals (answered over HTTP) only. */
  readonly status?: StatusRule;
  readonly message: string;
  readonly exitCode: number;
}

const SETUP = EXIT_CODES.setup;

export const ERRORS = {
  // Refusals, answered with an Error body. A refusal never ends a command: exitCode is for completeness.
  /** An HTTP/1.1 request without Host (RFC 9112 §3.2), refused before any operation is matched. */
  missingHost: {
    code: 'PST_ERR_MISSING_HOST',
    error: 400,
    status: 400,
    message: 'an HTTP/1.1 request must have a Host header (RFC 9112 §3.2); send Host: <host>:<port>',
    exitCode: SETUP,
  },
  /** Node could not parse the request (written on the raw socket: no operation is involved). */
  malformedHttp: { code: 'PST_ERR_MALFORMED_HTTP', error: 400, status: 400, message: 'malformed HTTP request (%s)', exitCode: SETUP },
  /** The request was not received within --request-timeout-ms; the connection closes. */
  requestTimeout: { code: 'PST_ERR_REQUEST_TIMEOUT', error: 400, status: 408, message: 'the request was not received in time', exitCode: SETUP },
  /** The request headers are larger than Node's limit (16 KiB). */
  headersTooLarge: { code: 'PST_ERR_HEADERS_TOO_LARGE', error: 400, status: 431, message: 'the request headers are too large', exitCode: SETUP },
  /** The body cannot be read as JSON: malformed, empty, not UTF-8, nested too deep. */
  badRequest: { code: 'PST_ERR_BAD_REQUEST', error: 400, status: 'declared', message: 'the request cannot be read: %s', exitCode: SETUP },
  /** A Prefer header (Prism's conventions) that cannot be read: a bad code, a missing comma; nothing is stored. */
  badPrefer: {
    code: 'PST_ERR_BAD_PREFER',
    error: 400,
    status: 'declared',
    message: 'the Prefer header cannot be read: %s; send e.g. Prefer: code=400, example=monstera',
    exitCode: SETUP,
  },
  /** No usable credentials. */
  unauthorized: { code: 'PST_ERR_UNAUTHORIZED', error: 401, status: 'declared', message: 'no usable credentials: %s', exitCode: SETUP },
  /** The open control API refuses a Host that is not this server's own name (DNS rebinding). */
  hostNotAllowed: { code: 'PST_ERR_HOST_NOT_ALLOWED', error: 403, status: 403, message: 'the control API does not answer Host %s', exitCode: SETUP },
  /** No operation has this path. */
  notFound: { code: 'PST_ERR_NOT_FOUND', error: 404, status: 404, message: 'no operation has the path %s', exitCode: SETUP },
  /** The path exists, the method does not. */
  methodNotAllowed: { code: 'PST_ERR_METHOD_NOT_ALLOWED', error: 405, status: 405, message: '%s does not have %s; it has %s', exitCode: SETUP },
  /** CONNECT asks for a tunnel; a stand-in is no proxy (the connection closes). */
  notAProxy: {
    code: 'PST_ERR_NOT_A_PROXY',
    error: 405,
    status: 405,
    message: "plantstore is not a proxy: CONNECT %s is not served; send requests to the stand-in's own paths",
    exitCode: SETUP,
  },
  /** No item has this id (a resource's read, replace, update or delete). */
  itemNotFound: { code: 'PST_ERR_ITEM_NOT_FOUND', error: 404, status: 'declared', message: 'no %s', exitCode: SETUP },
  /** An item with this id is already stored: the resource's noun, then the id ("a plant with id 1 …"). */
  duplicateId: { code: 'PST_ERR_DUPLICATE_ID', error: 409, status: 'declared', message: 'a %s with id %s already exists; ids are unique', exitCode: SETUP },
  /** A sign-up giving a username or email another user already has (docs/sign-in.md). */
  credentialsTaken: { code: 'PST_ERR_CREDENTIALS_TAKEN', error: 409, status: 'declared', message: 'no user was signed up: %s', exitCode: SETUP },
  /** A log-in whose credentials match no signed-up user, or a token that names no user (docs/sign-in.md). */
  wrongCredentials: { code: 'PST_ERR_WRONG_CREDENTIALS', error: 401, status: 'declared', message: 'not signed in: %s', exitCode: SETUP },
  /** A token a sign-in issued whose session has ended: logged out, or expired (docs/sign-in.md, "Sessions end"). */
  sessionEnded: {
    code: 'PST_ERR_SESSION_ENDED',
    error: 401,
    status: 'declared',
    message: 'the session has ended: this token %s; log in again to get a new one',
    exitCode: SETUP,
  },
  /** The body is larger than the limit. */
  bodyTooLarge: { code: 'PST_ERR_BODY_TOO_LARGE', error: 413, status: 'declared', message: 'the body is larger than %s bytes', exitCode: SETUP },
  /** The content type is not one the operation accepts. */
  unsupportedMediaType: {
    code: 'PST_ERR_UNSUPPORTED_MEDIA_TYPE',
    error: 415,
    status: 'declared',
    message: 'the content type %s is not accepted',
    exitCode: SETUP,
  },
  /** The body is JSON but breaks the operation's schema. */
  schemaViolation: { code: 'PST_ERR_SCHEMA_VIOLATION', error: 422, status: 'declared', message: 'the body breaks the schema: %s', exitCode: SETUP },
  /** A path segment that cannot be an identifier of the resource (its type, its bounds, one text per value). */
  invalidId: { code: 'PST_ERR_INVALID_ID', error: 400, status: 'declared', message: '%s is not an identifier of a %s: %s', exitCode: SETUP },
  /** A replace or update whose body names another identifier than its path. */
  idMismatch: {
    code: 'PST_ERR_ID_MISMATCH',
    error: 422,
    status: 'declared',
    message: 'the body says %s is %s, the path says %s; an item keeps its identifier',
    exitCode: SETUP,
  },
  /** A defect in the server itself; never the client's doing. */
  internal: { code: 'PST_ERR_INTERNAL', error: 500, status: 500, message: 'internal error: %s', exitCode: SETUP },
  /** Proxy mode: the real implementation (--proxy URL) did not answer. */
  upstreamUnreachable: { code: 'PST_ERR_UPSTREAM_UNREACHABLE', error: 502, status: 502, message: 'the proxied server did not answer: %s', exitCode: SETUP },
  /** Proxy mode with --proxy-strict: the real implementation's answer departs from the document. */
  upstreamViolation: {
    code: 'PST_ERR_UPSTREAM_VIOLATION',
    error: 502,
    status: 502,
    message: "the proxied server's answer departs from the document (--proxy-strict): %s",
    exitCode: SETUP,
  },
  /** Proxy mode with --proxy-strict: the real implementation's answer is too large to be judged (--proxy-body-limit). */
  upstreamTooLarge: {
    code: 'PST_ERR_UPSTREAM_TOO_LARGE',
    error: 502,
    status: 502,
    message: "the proxied server's answer is too large to judge (--proxy-strict): %s",
    exitCode: SETUP,
  },
  /** The change could not be made durable (--data-dir); nothing was stored. */
  storageFailed: {
    code: 'PST_ERR_STORAGE_FAILED',
    error: 503,
    status: 503,
    message: 'the change could not be stored durably, so it was not made: %s',
    exitCode: SETUP,
  },
  /** Too many request bodies are being received at once (--body-buffer-bytes); retry after Retry-After. */
  bodyBufferFull: {
    code: 'PST_ERR_BODY_BUFFER_FULL',
    error: 503,
    status: 503,
    message: 'too many request bodies are being received at once: %s',
    exitCode: SETUP,
  },
  /** Too many journal streams (the inspector's live view) are open at once. */
  tooManyStreams: {
    code: 'PST_ERR_TOO_MANY_STREAMS',
    error: 503,
    status: 503,
    message: 'too many journal streams are open: %s',
    exitCode: SETUP,
  },
  /**
   * A `status` fault: its `error` is the fault's own (docs/errors.md's "any" row), so none here, and so
   * is its status, given to statusOf as an override; the rule only stands in should a fault name none.
   */
  forcedStatus: { code: 'PST_ERR_FORCED_STATUS', status: 'declared', message: 'fault: forced status %s for %s', exitCode: SETUP },

  // Errors thrown (PlantstoreError). Those caught where they are thrown would, escaping, be set-up errors.
  usage: { code: 'PST_ERR_USAGE', message: '%s', exitCode: SETUP },
  document: { code: 'PST_ERR_DOCUMENT', message: '%s', exitCode: SETUP },
  inputFile: { code: 'PST_ERR_INPUT_FILE', message: '%s', exitCode: SETUP },
  config: { code: 'PST_ERR_CONFIG', message: '%s', exitCode: SETUP },
  /** A config or seed key's problem, before the file's name is put in front (becomes `config`). */
  configKey: { code: 'PST_ERR_CONFIG_KEY', message: '%s', exitCode: SETUP },
  fault: { code: 'PST_ERR_FAULT', message: 'invalid fault: %s', exitCode: SETUP },
  /** A control API query parameter (answered as a refusal by the control API). */
  query: { code: 'PST_ERR_QUERY', message: '%s', exitCode: SETUP },
  setup: { code: 'PST_ERR_SETUP', message: '%s', exitCode: SETUP },
  /** A schema the generators cannot draw values from. */
  schema: { code: 'PST_ERR_SCHEMA', message: '%s', exitCode: SETUP },
  /** The suite's request did not get a complete answer in time. */
  timeout: { code: 'PST_ERR_TIMEOUT', message: '%s', exitCode: SETUP },
  /** The suite's request got an answer (headers or body) larger than it reads: --max-answer-bytes. */
  answerTooLarge: { code: 'PST_ERR_ANSWER_TOO_LARGE', message: 'answer larger than %s', exitCode: SETUP },
  /** A request the HTTP client refused to put on the wire. */
  unsendable: { code: 'PST_ERR_UNSENDABLE', message: '%s', exitCode: SETUP },
  /** A model sequence ran out of steps (control flow inside the model property). */
  sequenceEnded: { code: 'PST_ERR_SEQUENCE_ENDED', message: '%s', exitCode: SETUP },
} as const satisfies Readonly<Record<string, ErrorEntry>>;

export type ErrorName = keyof typeof ERRORS;

/** The entries answered over HTTP (those with a status rule), by name. */
export type RefusalName = { [K in ErrorName]: (typeof ERRORS)[K] extends { readonly status: StatusRule } ? K : never }[ErrorName];

/** The refusals with a fixed Error number, by name: the numbers the pipeline answers with. */
export type NumberedName = { [K in ErrorName]: (typeof ERRORS)[K] extends { readonly error: number } ? K : never }[ErrorName];

export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.entries(ERRORS).flatMap(([name, entry]) => ('error' in entry ? [[name, entry.error]] : []))),
) as { readonly [K in NumberedName]: (typeof ERRORS)[K]['error'] };

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Why a request was refused, as plain data: every stage returns one instead of throwing, and the
 * responder words it as the document's Error body. `entry` names the table entry whose status
 * rule decides the HTTP status; `error` is its number (a status fault's own for forcedStatus).
 */
export interface Failure {
  readonly entry: RefusalName;
  readonly error: number;
  readonly message: string;
  /** Headers the answer must carry, e.g. WWW-Authenticate, Allow or Connection: close. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Every violation found, when `message` shows only the first few (for the debug log). */
  readonly details?: readonly string[];
  /** The whole account for the server's log, where `message` leaves out what a client must not see (the data dir's paths). */
  readonly logMessage?: string;
}

/**
 * A store that failed (a durable write, a tenant's log that cannot be opened, a shared store away):
 * the client hears which and the system error's code, never the server's paths or the store's URL;
 * the log hears it all.
 */
export function storageFailure(said: string, error: unknown): Failure {
  const cause = error instanceof Error ? error.message : String(error);
  const code = systemCode(error);
  // A system error is the data dir's; anything else is a shared store's (Redis away or restarting).
  // Our own errors are worded to be shown (a shared store's names its URL without the password).
  const what = error instanceof PlantstoreError ? error.message : code === undefined ? 'the store failed' : `the data dir failed (${code})`;
  const message = `${said}: ${what}; the server's log has the cause`;
  // Both are usually back soon: a restarted Redis within a second, a full disk at its next try.
  return { ...failure('storageFailed', message, RETRY_SOON), logMessage: `${said}: ${cause}` };
}

/** Retry-After of a store's 503. */
export const RETRY_SOON: Readonly<Record<string, string>> = Object.freeze({ 'retry-after': '1' });

/** The first system error code (ENOSPC, EIO, ENOTDIR…) along an error's causes. */
function systemCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 8) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return systemCode((error as { cause?: unknown }).cause, depth + 1);
}

export function failure(entry: NumberedName, message: string, headers?: Readonly<Record<string, string>>): Failure {
  const error = ERRORS[entry].error;
  return headers ? { entry, error, message, headers } : { entry, error, message };
}

/** A status fault's refusal: its Error number is the fault's, not the table's. */
export function forcedFailure(error: number, message: string): Failure {
  return { entry: 'forcedStatus', error, message };
}

/** The Error body the document declares: {"error": <code>, "message": "..."}. */
export function errorJson(refused: Failure): string {
  return JSON.stringify({ error: refused.error, message: refused.message });
}

/**
 * What a 'declared' rule is read against: the statuses the operation declares. A `4XX`-style range
 * and `default` declare every status they cover.
 */
export interface DeclaredStatuses {
  /** The exact codes declared. */
  readonly declared: ReadonlySet<number>;
  /** The document's failure status (a status fault's when it names none); see declaredFailureStatus. */
  readonly failureStatus: number;
  /** The first digits of the declared ranges: 4 for `4XX`. */
  readonly ranges?: ReadonlySet<number>;
  /** The operation declares a `default` response. */
  readonly declaresDefault?: boolean;
}

/** Whether `operation` declares `status`: exactly, by its range, or by `default`. */
export function declares(operation: DeclaredStatuses, status: number): boolean {
  return operation.declared.has(status) || operation.ranges?.has(Math.floor(status / 100)) === true || operation.declaresDefault === true;
}

/**
 * For each refusal number, the statuses that say the same thing, best first (RFC 9110's meanings):
 * a refusal takes the first one its operation declares. A body that cannot be read, breaks the
 * schema, is too large or has the wrong type is a validation refusal: 400 or 422, whichever the
 * document declares; 400 when it declares both (and the refusal's own status is not declared).
 */
const SAME_MEANING: Readonly<Record<number, readonly number[]>> = {
  400: [400, 422],
  413: [413, 400, 422],
  415: [415, 400, 422],
  422: [422, 400],
  401: [401, 403],
  403: [403, 401],
};

/**
 * Refusals whose meaning is not their number's: a path segment that cannot be an identifier names
 * no item, so where 400 is not declared a declared 404 says it (`GET /owners/abc` → 404).
 */
const SAME_MEANING_OF_ENTRY: Partial<Readonly<Record<RefusalName, readonly number[]>>> = {
  invalidId: [400, 404, 422],
};

/** Refusals no declared status fits get this: 400 for a validation refusal (HTTP's own), else the refusal's own. */
const UNDECLARED_VALIDATION = 400;

/** Refusals before any operation is matched have only numeric rules; 'declared' falls back to HTTP's own. */
const NO_OPERATION: DeclaredStatuses = { declared: new Set(), failureStatus: 400 };

/**
 * The HTTP status policy, the one place it is decided: `override` when given (--auth-status, a
 * status fault's status), else a numeric rule, else by meaning against what the operation declares:
 * the refusal's own status or one that means the same (SAME_MEANING), else the document's generic
 * failure status (400, else 422), else HTTP's own. A status that means something else (404 for a
 * wrong content type, 401 for a duplicate) is never taken just because it is the one declared. The
 * Plant Store, whose only failure is 400, gets 400 for every 'declared' refusal.
 */
export function statusOf(refused: Failure, operation: DeclaredStatuses = NO_OPERATION, override?: number): number {
  if (override !== undefined) return override;
  const rule: StatusRule = ERRORS[refused.entry].status;
  if (typeof rule === 'number') return rule;
  const own = refused.error;
  const alike = SAME_MEANING_OF_ENTRY[refused.entry] ?? SAME_MEANING[own];
  if (alike === undefined) {
    if (declares(operation, own)) return own;
  } else {
    for (const status of alike) if (declares(operation, status)) return status;
  }
  if (declares(operation, 400)) return 400;
  if (declares(operation, 422)) return 422;
  return alike !== undefined && alike.includes(400) ? UNDECLARED_VALIDATION : own;
}

/** The entry's message with its details filled in. */
export function errorMessage(name: ErrorName, ...details: unknown[]): string {
  return format(ERRORS[name].message, ...details);
}

/**
 * The base of every error plantstore throws: a stable `code` and the `exitCode` of the command it
 * ends, so the CLI reads the exit code from the error instead of listing classes.
 */
export class PlantstoreError extends Error {
  readonly code: string;
  readonly exitCode: number;

  constructor(name: ErrorName, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = ERRORS[name].code;
    this.exitCode = ERRORS[name].exitCode;
  }
}
