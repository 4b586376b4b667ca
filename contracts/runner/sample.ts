/**
 * Phase 1: every property's cases for the seed, sent `concurrency` at a time, each judged as it
 * comes back. fc.sample draws exactly the values fc.check draws for the same seed, so a case
 * found failing here is shrunk later from its run index (see shrink.ts).
 */
import fc from 'fast-check';
import type { Exchange } from '../checks/index.js';
import { record, type Tally } from './aggregate.js';
import type { CaseSource } from './case-source.js';
import { concurrently } from './concurrently.js';
import type { EnvFor, Plan } from './plan.js';
import { literalNeighbours } from './properties.js';
import { runCase, type Property } from './property.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';
import { breather } from './breathe.js';
import type { Resource } from '../../src/core/resources/model.js';

export async function sampleInto(
  tally: Tally,
  planned: readonly Plan[],
  /** The plans with what the target was found to take (evidence.ts), the probes judged. */
  learning: Promise<Plan[]>,
  source: CaseSource,
  settings: Settings,
  envFor: EnvFor,
  /** --fail-fast: no further case is started once this holds. */
  stop: () => boolean = () => false,
): Promise<Plan[]> {
  // The fixed 2^53 / 2^53+1 pair, once per operation, before the rest.
  const ready = learning.then(async (plans) => {
    const breathe = breather();
    for (const [planIndex, plan] of plans.entries()) {
      // A halted run's client answers at once: without a breath and this stop, the pairs were drawn for every plan first.
      await breathe();
      if (stop()) break;
      const [validCase] = fc.sample(source.validCases(plan.operation, settings.caseContext), { seed: settings.seed, numRuns: 1 });
      if (validCase === undefined) continue;
      const env = envFor(plan.operation, true);
      const send = (inner: RunEnv): Promise<Exchange[]> => literalNeighbours(inner, validCase, plan.context.expectUniqueIds);
      // Deleted inside runCase already, before the items `around` made for it: judging reads only the answers.
      const exchanges = await runCase(env, send);
      record(tally, exchanges, plan.context, { property: 'literal-neighbours', startPath: undefined, plan: planIndex });
    }
    return plans;
  });
  const waits = planned.map(drawsIds);
  // Learning takes one of the slots; the cases that draw no id go in the others meanwhile.
  await concurrently(
    ordered(planned, settings.seed, stop),
    settings.concurrency,
    async (item) => {
      const plan = (waits[item.plan] === true ? await ready : planned)[item.plan] as Plan;
      // What the case created is deleted before it returns (property.ts runCase): the next case's lists see what is in flight, not the whole run.
      const exchanges = await item.run(envFor(plan.operation, true));
      record(tally, exchanges, plan.context, { property: plan.key(item.property), startPath: String(item.index), plan: item.plan, order: item.order });
    },
    ready,
  );
  return ready;
}

/**
 * Whether the plan's cases may send an id (in a body, or an item in the path) or a fixed pair of
 * them: those wait until the run knows which ids the target takes. A list or a search sends none.
 */
function drawsIds(plan: Plan): boolean {
  const operation = plan.operation;
  return (operation.request?.body?.contents ?? []).length > 0 || operation.path.includes('{') || plan.owning !== undefined;
}

export interface PlanItem {
  readonly plan: number;
  readonly property: Property;
  readonly index: number;
  readonly run: (env: RunEnv) => Promise<Exchange[]>;
}

interface WorkItem extends PlanItem {
  /** Its place in the run's sending order, which the seed alone decides (unlike the order answers come back in). */
  readonly order: number;
}

/**
 * Runs are drawn a slice at a time, when the workers reach them, so drawing overlaps sending. A
 * slice holds the event loop while it is drawn, and the target then waits for the answers it sent
 * to be read: the 25 sequences of a default model run, drawn as one slice, held it 60–120 ms with
 * no request in flight. So each slice is sized to be drawn in about SLICE_MS, judged by the time
 * the last one took (a property's first runs are the slowest: cold code). fast-check reaches run i
 * of a seed by jumping its generator i times (about 1 µs each), so a slice also holds at least
 * 1/JUMPS_PER_RUN of the runs before it: the jumps then cost a few µs a run, against 100–2,500 µs
 * to draw one.
 */
const FIRST_SLICE = 32;
const LAST_SLICE = 512;
export const SLICE_MS = 4;
const JUMPS_PER_RUN = 32;

/** The first slice: fewer runs where a run sends more requests (a sequence draws a body for each). */
export function firstSliceSize(requestsPerRun: number): number {
  return Math.max(1, Math.floor(FIRST_SLICE / Math.max(1, requestsPerRun)));
}

/** The next slice's runs, after `drawn` runs took `ms` to draw and `from` runs precede it. */
export function nextSliceSize(drawn: number, ms: number, from: number): number {
  const inTime = ms > 0 ? Math.floor((drawn * SLICE_MS) / ms) : LAST_SLICE;
  return Math.min(LAST_SLICE, Math.max(1, Math.ceil(from / JUMPS_PER_RUN), Math.min(drawn * 2, inTime)));
}

export function* planWork(plan: Plan, planIndex: number, seed: number, clock: () => number = () => performance.now()): Generator<PlanItem> {
  for (const property of plan.properties) {
    let size = firstSliceSize(property.requestsPerRun);
    for (let from = 0; from < property.numRuns;) {
      const started = clock();
      const runs = property.cases(seed, from, Math.min(size, property.numRuns - from));
      if (runs.length === 0) break;
      size = nextSliceSize(runs.length, clock() - started, from + runs.length);
      for (const [offset, run] of runs.entries()) yield { plan: planIndex, property, index: from + offset, run };
      from += runs.length;
    }
  }
}

/**
 * The plans' cases in the plans' order, but a delete whose cases take the items a create's cases are
 * done with (item-supply.ts) goes beside that create: each next case comes from the one of them that
 * has sent the smaller share of its own, so the deletes meet fresh items from start to end.
 */
function* ordered(plans: readonly Plan[], seed: number, stop: () => boolean): Generator<WorkItem> {
  let order = 0;
  for (const strand of strandsOf(plans)) {
    const streams = strand.map((index) => ({ work: planWork(plans[index] as Plan, index, seed), total: casesOf(plans[index] as Plan), sent: 0 }));
    while (streams.length > 0) {
      let next = streams[0] as (typeof streams)[number];
      for (const stream of streams) if (stream.sent / stream.total < next.sent / next.total) next = stream;
      const step = next.work.next();
      if (step.done === true) {
        streams.splice(streams.indexOf(next), 1);
        continue;
      }
      if (stop()) return;
      next.sent += 1;
      yield { ...step.value, order: order++ };
    }
  }
}

/** How many cases a plan's properties draw (at least 1, so a share is a number). */
function casesOf(plan: Plan): number {
  return Math.max(
    1,
    plan.properties.reduce((sum, property) => sum + property.numRuns, 0),
  );
}

/** The plans' indexes in groups, each in the order of its first: a create with the deletes that take its items, every other plan alone. */
export function strandsOf(plans: readonly Plan[]): number[][] {
  const createOf = (resource: Resource): number => {
    const create = resource.operations.create;
    return create === undefined ? -1 : plans.findIndex((plan) => plan.operation.method === create.method && plan.operation.path === create.path);
  };
  const groups = new Map<number, number[]>();
  for (const [index, plan] of plans.entries()) {
    const takes = plan.owning?.takes;
    const create = takes === undefined ? -1 : createOf(takes);
    const leader = create === -1 ? index : create;
    groups.set(leader, [...(groups.get(leader) ?? []), index]);
  }
  return [...groups.values()].sort((a, b) => (a[0] as number) - (b[0] as number));
}
