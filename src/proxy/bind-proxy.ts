/**
 * Proxy mode (serve --proxy URL): every operation of the document is answered by the real
 * implementation. The request runs the stand-in's pipeline (faults, validation) and is forwarded
 * with its bytes unchanged; the answer comes back unchanged, judged against the document, and the
 * journal entry names every violation. With `strict`, an invalid request is refused as the
 * stand-in refuses it (never forwarded) and a violating answer is replaced by a 502 Error naming it.
 */
import type { IHttpOperation } from '@stoplight/types';
import { errorMessage, failure } from '../core/errors.js';
import type { Binding, HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import type { ContractViolation } from '../journal/journal.js';
import { SHARED_TENANT } from '../store/tenants.js';
import { forward } from './forward.js';
import { compileResponseCheck } from './response-check.js';

export interface ProxyOptions {
  /** The real implementation's base URL; the request's path and query are appended. */
  readonly upstream: URL;
  readonly strict: boolean;
  readonly timeoutMs: number;
}

/** Credentials are the real implementation's to judge: the stand-in cannot know which it accepts. */
const LET_THROUGH: Binding['authorize'] = () => ({ ok: true, token: undefined });

export function proxyBinder(options: ProxyOptions): (operation: IHttpOperation) => Binding {
  return (operation) => {
    const checkResponse = compileResponseCheck(operation);
    return {
      authorize: LET_THROUGH,
      tenant: () => SHARED_TENANT,
      handle: (context) => proxied(context, options, checkResponse),
    };
  };
}

async function proxied(context: HandlerContext, options: ProxyOptions, checkResponse: ReturnType<typeof compileResponseCheck>): Promise<Outcome> {
  const { request } = context;
  const requestViolations: ContractViolation[] =
    context.validation?.ok === false ? [{ side: 'request', check: 'request', message: context.validation.message }] : [];
  const answer = await forward(
    options.upstream,
    { method: request.method, target: targetOf(context), headers: request.headers, body: request.body },
    options.timeoutMs,
  );
  if (!answer.ok) {
    return { ok: false, failure: failure('upstreamUnreachable', errorMessage('upstreamUnreachable', answer.reason)), violations: requestViolations };
  }
  const violations = [...requestViolations, ...checkResponse(answer.status, answer.headers['content-type'], answer.body)];
  const responseViolations = violations.filter((violation) => violation.side === 'response');
  if (options.strict && responseViolations.length > 0) {
    const named = responseViolations.map((violation) => `${violation.check}: ${violation.message}`).join('; ');
    return { ok: false, failure: failure('upstreamViolation', errorMessage('upstreamViolation', named)), violations };
  }
  // The body goes back as text: JSON and other text pass unchanged (see the README's limits for binary bodies).
  return { ok: true, answer: { status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') }, violations };
}

/** The path and query exactly as the client sent them. */
function targetOf({ request, queryText }: HandlerContext): string {
  return queryText === undefined || queryText === '' ? request.path : `${request.path}?${queryText}`;
}
