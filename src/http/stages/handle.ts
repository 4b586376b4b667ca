import type { Outcome } from '../answer.js';
import { routed, type Decision, type RequestContext, type Stage } from '../context.js';
import { statusOf } from '../../core/errors.js';

/** The operation's behaviour (the store, prism's mocker, a control handler): always answers. */
export const handleStage: Stage<Outcome> = {
  name: 'handle',
  run(context) {
    const outcome = routed(context).binding.handle({
      body: context.validBody,
      request: context.input as NonNullable<typeof context.input>,
      pathParameters: context.pathParameters,
      tenant: context.tenant,
      preferences: context.preferences,
      queryText: context.query,
      validation: context.validation,
    });
    return outcome instanceof Promise ? outcome : settle(context, outcome);
  },
  settle,
};

function settle(context: RequestContext, outcome: Outcome): Decision {
  const { slowBodyMs } = context;
  if (outcome.violations !== undefined && outcome.violations.length > 0) context.violations = outcome.violations;
  if (outcome.ok) return slowBodyMs === undefined ? { kind: 'answer', answer: outcome.answer } : { kind: 'answer', answer: outcome.answer, slowBodyMs };
  const status = statusOf(outcome.failure, routed(context));
  return slowBodyMs === undefined ? { kind: 'refusal', failure: outcome.failure, status } : { kind: 'refusal', failure: outcome.failure, status, slowBodyMs };
}
