import { PASS, refused, routed, type Decision, type RequestContext, type Stage } from '../context.js';
import { readBody, type BodyBudget, type BodyRead } from '../read-body.js';

/**
 * Reads the body up to `limit` bytes, out of the server-wide `budget`; the pipeline gives the bytes
 * back to the budget once the answer is decided.
 */
export function bodyStage(limit: number, budget: BodyBudget | undefined): Stage<BodyRead> {
  return {
    name: 'body',
    run: (context) => readBody(context.request, limit, budget),
    settle,
  };
}

function settle(context: RequestContext, read: BodyRead): Decision {
  if (!read.ok) return refused(read.failure, routed(context));
  context.body = read.body;
  return PASS;
}
