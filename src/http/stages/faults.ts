import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultPlan, Faults } from '../../faults/faults.js';
import { PASS, routed, type Decision, type RequestContext, type Stage } from '../context.js';
import { faultReply } from '../refusal.js';

/** Applies the faults in force: a delay, then a forced status, a dropped connection or a slow body. */
export function faultStage(faults: Faults): Stage<FaultPlan> {
  return {
    name: 'faults',
    run(context) {
      const name = routed(context).name;
      // Faults shared by replicas count `times` in their store: a plan may have to wait for it.
      const planned = faults.shared ? faults.shared.plan(name) : faults.plan(name);
      if (planned instanceof Promise) return planned.then((plan) => delayed(context, plan));
      if (planned.applied.length > 0) context.fault = planned.applied.join('+');
      // unref'd: a pending fault delay must not keep a stopping server alive.
      if (planned.delayMs > 0) return sleep(planned.delayMs, planned, { ref: false });
      return settle(context, planned);
    },
    settle,
  };
}

function delayed(context: RequestContext, plan: FaultPlan): FaultPlan | Promise<FaultPlan> {
  if (plan.applied.length > 0) context.fault = plan.applied.join('+');
  return plan.delayMs > 0 ? sleep(plan.delayMs, plan, { ref: false }) : plan;
}

function settle(context: RequestContext, plan: FaultPlan): Decision {
  if (!plan.outcome) return PASS;
  const forced = faultReply(plan.outcome, routed(context));
  if (forced) return forced;
  context.slowBodyMs = plan.outcome.bodyDurationMs;
  return PASS;
}
