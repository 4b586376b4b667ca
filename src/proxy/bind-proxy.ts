/**
 * Proxy mode (serve --proxy URL): every operation of the document is answered by the real
 * implementation. The request runs the stand-in's pipeline (faults, credentials, validation) and is
 * forwarded with its bytes unchanged; the answer comes back byte for byte, judged against the
 * document, and the journal entry names every violation. With `strict`, a request without the
 * credentials the document demands or an invalid one is refused as the stand-in refuses it (never
 * forwarded), and a violating answer is replaced by a 502 Error naming it.
 */
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
  readonly timeoutMs: number;
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
    options.timeoutMs,
  );
  if (!answer.ok) {
    return { ok: false, failure: failure('upstreamUnreachable', errorMessage('upstreamUnreachable', answer.reason)), violations: requestViolations };
  }
  const violations = [...requestViolations, ...checkResponse(answer.status, answer.headers, answer.body)];
  const responseViolations = violations.filter((violation) => violation.side === 'response');
  if (options.strict && responseViolations.length > 0) {
    const named = responseViolations.map((violation) => `${violation.check}: ${violation.message}`).join('; ');
    return { ok: false, failure: failure('upstreamViolation', errorMessage('upstreamViolation', named)), violations };
  }
  // The bytes as received: a binary body (an image) or text in any charset reaches the client exactly.
  return { ok: true, answer: { status: answer.status, headers: answer.headers, body: answer.body }, violations };
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
