/** --replay: only the case at the path ("valid:12:0:3"; without a property name, each property's). */
import type { Exchange } from '../checks/index.js';
import { record, type Tally } from './aggregate.js';
import type { EnvFor, Plan } from './plan.js';
import { SetupError } from './setup.js';

export async function replayInto(tally: Tally, plans: readonly Plan[], replay: string, seed: number, envFor: EnvFor): Promise<void> {
  const match = /^(?:([A-Za-z][^:]*):)?(\d+(?::\d+)*)$/.exec(replay.trim());
  if (!match) throw new SetupError(`--replay takes a path as printed with a finding, e.g. "valid:12:0:3", not "${replay}"`);
  const [, wanted, path = ''] = match;
  const chosen = plans.flatMap((plan, planIndex) =>
    plan.properties.filter((p) => wanted === undefined || plan.key(p) === wanted).map((property) => ({ plan, planIndex, property })),
  );
  if (chosen.length === 0) {
    const known = plans.flatMap((plan) => plan.properties.map((p) => plan.key(p))).join(', ');
    throw new SetupError(
      `--replay names no property of this run: "${wanted ?? ''}" (known: ${known}; the model property needs --stateful or --expect-unique-ids)`,
    );
  }
  let sent = 0;
  for (const { plan, planIndex, property } of chosen) {
    let exchanges: Exchange[];
    try {
      exchanges = await property.replay(seed, path, { ...envFor(plan.operation, true), replaying: true });
    } catch (error) {
      // A path from another property may not fit this one's generator.
      if (wanted === undefined) continue;
      throw new SetupError(`--replay ${replay} does not fit the ${plan.key(property)} property: ${error instanceof Error ? error.message : String(error)}`);
    }
    sent += exchanges.length;
    record(tally, exchanges, plan.context, { property: plan.key(property), startPath: path, plan: planIndex });
  }
  // A replay that sent nothing (a run index past the property's end) proves nothing: say so rather than "conforms".
  if (sent === 0) throw new SetupError(`--replay ${replay} sent no request: check the path and the seed printed with the finding`);
}
