import type { RouteTable } from '../../routing/route-table.js';
import { answered, PASS, type Stage } from '../context.js';
import { isPreflight, preflightHeaders } from '../cors.js';
import { headerText } from '../../core/http/headers.js';

/**
 * Answers a CORS preflight before routing (a preflight is no request for the operation). For a
 * path no operation has, it allows the method asked for: a 404 to the preflight would make the
 * browser block the real request and report only "Failed to fetch", where the real request's 404
 * Error tells the developer the path is wrong (Prism answers such preflights too).
 */
export function corsStage(routes: RouteTable): Stage {
  return {
    name: 'cors',
    run(context) {
      const { headers } = context.request;
      if (!isPreflight(context.method, headers)) return PASS;
      const allow = routes.methodsOf(context.path) ?? [askedMethod(headerText(headers['access-control-request-method']))];
      return answered({ status: 204, headers: preflightHeaders(headers, allow), body: '' });
    },
  };
}

/** RFC 9110 §9.1: a method is a token; anything else is not echoed. */
function askedMethod(method: string | undefined): string {
  return method !== undefined && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method) ? method : 'GET';
}
