import { storageFailure } from '../../core/errors.js';
import type { Credentials } from '../../auth/credential-check.js';
import { PASS, refused, routed, type Decision, type RequestContext, type Stage } from '../context.js';

/**
 * The operation's credential check, then whose plants the request sees. `authStatus` overrides
 * the refusal's status (--auth-status, about the API's document; the control site passes none).
 * Both may wait for the shared store (tokens a sign-in issued, kept in Redis): a store that fails
 * answers its 503 with Retry-After, never a pass.
 */
export function authorizeStage(authStatus: 400 | 401 | undefined): Stage<Decision> {
  return {
    name: 'authorize',
    run(context) {
      const operation = routed(context);
      const credentials = operation.binding.authorize({ headers: context.request.headers, query: context.query, connection: context.request.socket });
      if (credentials instanceof Promise) return credentials.then((found) => admit(context, found, authStatus)).catch((error) => unavailable(context, error));
      const decision = admit(context, credentials, authStatus);
      return decision instanceof Promise ? decision.catch((error) => unavailable(context, error)) : decision;
    },
    settle: (_context, decision) => decision,
  };
}

function admit(context: RequestContext, credentials: Credentials, authStatus: 400 | 401 | undefined): Decision | Promise<Decision> {
  const operation = routed(context);
  if (!credentials.ok) return refused(credentials.failure, operation, authStatus);
  const tenant = operation.binding.tenant(credentials, context.request.headers);
  if (!(tenant instanceof Promise)) {
    context.tenant = tenant;
    return PASS;
  }
  return tenant.then((found) => {
    context.tenant = found;
    return PASS;
  });
}

function unavailable(context: RequestContext, error: unknown): Decision {
  return refused(storageFailure('the credentials could not be checked', error), routed(context));
}
