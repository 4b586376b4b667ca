import { failure } from '../../core/errors.js';
import type { RouteTable } from '../../routing/route-table.js';
import { answered, PASS, refused, type Stage } from '../context.js';
import { isPreflight, preflightHeaders } from '../cors.js';

/** Answers a CORS preflight for any path the site has, before routing (a preflight is no request for the operation). */
export function corsStage(routes: RouteTable): Stage {
  return {
    name: 'cors',
    run(context) {
      const { headers } = context.request;
      if (!isPreflight(context.method, headers)) return PASS;
      const allow = routes.methodsOf(context.path);
      if (!allow) return refused(failure('notFound', 'no operation has this path'));
      return answered({ status: 204, headers: preflightHeaders(headers, allow), body: '' });
    },
  };
}
