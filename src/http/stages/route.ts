import type { IHttpOperation } from '@stoplight/types';
import { failure } from '../../core/errors.js';
import type { RouteTable } from '../../routing/route-table.js';
import type { Answer } from '../answer.js';
import { answered, PASS, refused, type ServedOperation, type Stage } from '../context.js';

/** An answer for GET of one path no operation has (the site's front door: `/`, `/__control`). */
export interface SiteIndex {
  readonly path: string;
  readonly answer: Answer;
}

/**
 * Finds the operation: 404 for an unknown path, 405 (with Allow) for a method it lacks, 204 for
 * OPTIONS. GET of the site's index path, when no operation has it, answers the index.
 */
export function routeStage(routes: RouteTable, served: ReadonlyMap<IHttpOperation, ServedOperation>, index?: SiteIndex): Stage {
  return {
    name: 'route',
    run(context) {
      const { method, path } = context;
      const route = routes.match(method, path);
      if (route.kind === 'no-path' && index !== undefined && path === index.path && (method === 'GET' || method === 'HEAD')) return answered(index.answer);
      if (route.kind === 'no-path') return refused(failure('notFound', `no operation has the path ${path}`));
      if (route.kind === 'no-method') {
        const allow = route.allow.join(', ');
        if (method === 'OPTIONS') return answered({ status: 204, headers: { allow: `${allow}, OPTIONS` }, body: '' });
        return refused(failure('methodNotAllowed', `${path} does not have ${method}; it has ${allow}`, { allow }));
      }
      context.operation = served.get(route.operation);
      if (route.alternatives !== undefined)
        context.alternatives = route.alternatives.map((operation) => served.get(operation)).filter((o): o is ServedOperation => o !== undefined);
      context.pathParameters = route.pathParameters;
      context.operationPath = route.path;
      return PASS;
    },
  };
}
