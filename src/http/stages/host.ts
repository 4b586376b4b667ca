import { errorMessage, failure, type Failure } from '../../core/errors.js';
import { PASS, refused, type Decision, type RequestContext, type Stage } from '../context.js';

export type HostCheck = (host: string | undefined) => boolean;

/** RFC 9112 §3.2: an HTTP/1.1 request must name the host; HTTP/1.0 has no Host to send. */
const NO_HOST = refused(failure('missingHost', errorMessage('missingHost')));

/** Every site requires a Host of HTTP/1.1; the open control site also only answers its own names (`allowed`). */
export function hostStage(allowed?: HostCheck): Stage {
  if (allowed === undefined) return { name: 'host', run: requireHost };
  return {
    name: 'host',
    run(context) {
      const host = context.request.headers.host;
      return requireHost(context) ?? (allowed(host) ? PASS : refused(hostNotAllowed(host)));
    },
  };
}

function requireHost(context: RequestContext): Decision {
  return context.request.headers.host === undefined && context.request.httpVersionMinor === 1 ? NO_HOST : PASS;
}

function hostNotAllowed(host: string | undefined): Failure {
  const name = String(host).slice(0, 200);
  return failure(
    'hostNotAllowed',
    `the control API is open (no admin token), so it answers only requests for this server's own names (localhost, IP addresses), not Host "${name}"; pass --allow-host <name> (allowedHosts in a config file) to allow a name, or set an admin token (--admin-token) to protect the control API`,
  );
}
