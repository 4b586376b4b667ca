import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultPlan, Faults } from '../../faults/faults.js';
import { PASS, routed, type Decision, type RequestContext, type Stage } from '../context.js';
import { faultReply } from '../refusal.js';

/** Applies the faults in force: a delay, then a forced status, a dropped connection or a slow body. */
export function faultStage(faults: Faults): Stage<FaultPlan> {
  return {
    name: 'faults',
    run(context) {
      const plan = faults.plan(routed(context).name);
      if (plan.applied.length > 0) context.fault = plan.applied.join('+');
      // unref'd: a pending fault delay must not keep a stopping server alive.
      if (plan.delayMs > 0) return sleep(plan.delayMs, plan, { ref: false });
      return settle(context, plan);
    },
    settle,
  };
}

function settle(context: RequestContext, plan: FaultPlan): Decision {
  if (!plan.outcome) return PASS;
  const forced = faultReply(plan.outcome, routed(context));
  if (forced) return forced;
  context.slowBodyMs = plan.outcome.bodyDurationMs;
  return PASS;
}
