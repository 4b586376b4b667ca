/**
 * Proxy mode (serve --proxy URL): every operation of the document is answered by the real
 * implementation. The request runs the stand-in's pipeline (faults, credentials, validation) and is
 * forwarded with its bytes unchanged; the answer comes back byte for byte, judged against the
 * document, and the journal entry names every violation. With `strict`, a request without the
 * credentials the document demands or an invalid one is refused as the stand-in refuses it (never
 * forwarded), and a violating answer is replaced by a 502 Error naming it. An answer whose body is
 * larger than `bodyLimitBytes` is not held: its status and headers are judged, its body is streamed
 * through unjudged and the journal says so (strict: a 502 naming why it cannot be judged).
 */
import type { Readable } from 'node:stream';
import type { IHttpOperation } from '@stoplight/types';
import { compileCredentialCheck, isolatingToken, type CredentialCheck, type Credentials } from '../auth/credential-check.js';
import { errorMessage, failure } from '../core/errors.js';
import type { Binding, HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import type { ContractViolation } from '../journal/journal.js';
import { SHARED_TENANT, tenantOfToken } from '../store/tenants.js';
import { forward } from './forward.js';
import { compileResponseCheck } from './response-check.js';

export interface ProxyOptions {
  /** The real implementation's base URL; the request's path and query are appended. */
  readonly upstream: URL;
  readonly strict: boolean;
  /** The whole exchange, from forwarding the request to the answer's last byte. */
  readonly timeoutMs: number;
  /** The largest answer body read whole and judged (--proxy-body-limit). */
  readonly bodyLimitBytes: number;
}

export interface ProxyBindingOptions {
  /** Each bearer token's requests are journaled under its tenant, as the stand-in's are. */
  readonly isolateByToken: boolean;
}

export function proxyBinder(
  options: ProxyOptions,
  { isolateByToken }: ProxyBindingOptions = { isolateByToken: false },
): (operation: IHttpOperation) => Binding {
  return (operation) => {
    const checkResponse = compileResponseCheck(operation);
    // No --token list: which tokens are good is the real implementation's to say; the document's
    // security says only what kind of credential must be there.
    const checkCredentials = compileCredentialCheck(operation, []);
    return {
      // Strict refuses with the document's 401 before forwarding; otherwise the request goes on and the handler notes why.
      authorize: options.strict ? checkCredentials : (source) => letThrough(checkCredentials(source)),
      tenant: (credentials, headers) => {
        const token = isolateByToken ? isolatingToken(credentials, headers) : undefined;
        return token === undefined ? SHARED_TENANT : tenantOfToken(token);
      },
      handle: (context) => proxied(context, options, checkCredentials, checkResponse),
    };
  };
}

/** A refused request still goes through, without a tenant of its own (it showed no usable token). */
function letThrough(credentials: Credentials): Credentials {
  return credentials.ok ? credentials : { ok: true, token: undefined };
}

async function proxied(
  context: HandlerContext,
  options: ProxyOptions,
  checkCredentials: CredentialCheck,
  checkResponse: ReturnType<typeof compileResponseCheck>,
): Promise<Outcome> {
  const { request } = context;
  const requestViolations = [...credentialViolations(context, checkCredentials), ...validationViolations(context)];
  const answer = await forward(
    options.upstream,
    { method: request.method, target: targetOf(context), headers: request.headers, body: request.body },
    { timeoutMs: options.timeoutMs, bodyBytes: options.bodyLimitBytes },
  );
  if (!answer.ok) {
    return { ok: false, failure: failure('upstreamUnreachable', errorMessage('upstreamUnreachable', answer.reason)), violations: requestViolations };
  }
  if (answer.rest !== undefined) return passedOnUnjudged({ ...answer, rest: answer.rest }, options, requestViolations, checkResponse);
  const violations = [...requestViolations, ...checkResponse(answer.status, answer.headers, answer.body)];
  const responseViolations = violations.filter((violation) => violation.side === 'response');
  if (options.strict && responseViolations.length > 0) {
    return { ok: false, failure: failure('upstreamViolation', errorMessage('upstreamViolation', named(responseViolations))), violations };
  }
  // The bytes as received: a binary body (an image) or text in any charset reaches the client exactly.
  return { ok: true, answer: { status: answer.status, headers: answer.headers, body: answer.body }, violations };
}

const NO_BODY = Buffer.alloc(0);

/**
 * An answer larger than the limit: judged by its status and headers only (the body check sees
 * none), with a violation saying the body was not judged. Strict refuses it with a 502 (the
 * upstream's body is dropped unread); otherwise it is streamed through, and if the stream is cut
 * (the deadline, the upstream failing) the journal entry says so too.
 */
function passedOnUnjudged(
  answer: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly body: Buffer;
    readonly rest: Readable;
    readonly declaredLength?: number;
  },
  options: ProxyOptions,
  requestViolations: readonly ContractViolation[],
  checkResponse: ReturnType<typeof compileResponseCheck>,
): Outcome {
  const size = answer.declaredLength === undefined ? `more than ${options.bodyLimitBytes} bytes` : `${answer.declaredLength} bytes`;
  const tooLarge: ContractViolation = {
    side: 'response',
    check: 'body-size',
    message: `the body (${size}) is larger than --proxy-body-limit (${options.bodyLimitBytes} bytes), so its media type and content were not judged`,
  };
  const violations: ContractViolation[] = [...requestViolations, tooLarge, ...checkResponse(answer.status, answer.headers, NO_BODY)];
  if (options.strict) {
    answer.rest.destroy();
    const responseViolations = violations.filter((violation) => violation.side === 'response');
    return { ok: false, failure: failure('upstreamTooLarge', errorMessage('upstreamTooLarge', named(responseViolations))), violations };
  }
  // The journal reads `violations` after the last byte: a cut stream adds its reason first.
  answer.rest.once('error', (error) => {
    const why = error.name === 'TimeoutError' ? `not complete within ${options.timeoutMs} ms (--request-timeout-ms)` : error.message;
    violations.push({
      side: 'response',
      check: 'incomplete',
      message: `the answer was cut while it was passed on (${why}); the client's connection was closed`,
    });
  });
  const length = answer.declaredLength === undefined ? {} : { 'content-length': String(answer.declaredLength) };
  return { ok: true, answer: { status: answer.status, headers: { ...answer.headers, ...length }, body: answer.body, rest: answer.rest }, violations };
}

function named(violations: readonly ContractViolation[]): string {
  return violations.map((violation) => `${violation.check}: ${violation.message}`).join('; ');
}

/** The credential check's reason, which names where a credential belongs and never its value. */
function credentialViolations({ request, queryText }: HandlerContext, checkCredentials: CredentialCheck): ContractViolation[] {
  const verdict = checkCredentials({ headers: request.headers, query: queryText ?? '' });
  return verdict.ok ? [] : [{ side: 'request', check: 'auth', message: verdict.failure.message }];
}

function validationViolations({ validation }: HandlerContext): ContractViolation[] {
  return validation?.ok === false ? [{ side: 'request', check: 'request', message: validation.message }] : [];
}

/** The path and query as the client sent them (under the document's paths: a servers' base path such as /api/v3 is not forwarded). */
function targetOf({ request, queryText }: HandlerContext): string {
  return queryText === undefined || queryText === '' ? request.path : `${request.path}?${queryText}`;
}
