import { PASS, refused, routed, type Stage } from '../context.js';

/**
 * The operation's credential check, then whose plants the request sees. `authStatus` overrides
 * the refusal's status (--auth-status, about the API's document; the control site passes none).
 */
export function authorizeStage(authStatus: 400 | 401 | undefined): Stage {
  return {
    name: 'authorize',
    run(context) {
      const operation = routed(context);
      const { headers } = context.request;
      const credentials = operation.binding.authorize({ headers, query: context.query });
      if (!credentials.ok) return refused(credentials.failure, operation, authStatus);
      context.tenant = operation.binding.tenant(credentials, headers);
      return PASS;
    },
  };
}
