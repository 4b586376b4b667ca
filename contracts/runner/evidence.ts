/**
 * Judgement by evidence, learnt from the target at the start of the run for each create of
 * client-assigned ids (integer, uuid or string, by the identifier's own property):
 *   - which ids it takes (integer ids): a fresh id as large as the identifier allows; if that is refused and a
 *     fresh one below 2^53 is accepted, the run goes on with ids below 2^53 (the refusal is judged
 *     once, by positive-acceptance, as a refused valid id), so duplicate and lifecycle checks still run;
 *   - how it refuses a taken id: the same fresh id sent twice (where none can be drawn, the first
 *     case's own id, when the first of the two is accepted); the second answer's status, error
 *     code and message (values taken out) are the fingerprint a later refusal of an edge id
 *     (0, the int64 extremes) must match to be excused as "perhaps stored by an earlier run".
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { Exchange, ExchangeFacts, RefusalShape } from '../checks/index.js';
import { shapeOf } from '../checks/refusal-shape.js';
import type { CaseSource, RequestCase } from './case-source.js';
import fc from 'fast-check';
import { canDrawFresh, freshIdValue, idIn, idLabel, sentId, type IdValue, type RunIdentifier } from './identifier.js';
import { freshIdWithin } from './ids.js';
import type { EnvFor, Plan } from './plan.js';
import { validLabel } from './properties.js';
import { runCase } from './property.js';
import { send, withId, type RunEnv } from './send.js';
import type { Settings } from './settings.js';
import { breather } from './breathe.js';

const SAFE = 2n ** 53n - 1n;

export interface Evidence {
  readonly plans: Plan[];
  /** The probes' exchanges, judged like any other (a refused fresh id is a finding). */
  readonly exchanges: ReadonlyArray<{ readonly plan: number; readonly exchanges: Exchange[] }>;
}

export async function gatherEvidence(
  plans: readonly Plan[],
  source: CaseSource,
  settings: Settings,
  envFor: EnvFor,
  /** The run was halted: the plans left learn nothing (a halted client answers at once, so without this the draws went on for seconds). */
  stopped: () => boolean = () => false,
): Promise<Evidence> {
  const exchanges: Array<{ plan: number; exchanges: Exchange[] }> = [];
  const learnt: Plan[] = [];
  const breathe = breather();
  for (const [index, plan] of plans.entries()) {
    await breathe();
    if (stopped()) {
      learnt.push(plan);
      continue;
    }
    // A replace or update names its path's item in its body too: a fresh id there is not a new item but a mismatch.
    const identifier = plan.bodyNamesPathItem === true ? undefined : plan.identifier;
    const found = identifier === undefined ? undefined : await underOwnParent(identifier, probeStart(plan, source, settings, envFor));
    if (found === undefined) {
      learnt.push(plan);
      continue;
    }
    exchanges.push({ plan: index, exchanges: found.exchanges });
    const duplicateRefusal = found.duplicateRefusal;
    learnt.push(duplicateRefusal === undefined ? plan : { ...plan, context: { ...plan.context, duplicateRefusal } });
  }
  return { plans: learnt, exchanges };
}

/** What a plan's probes learnt: their exchanges, and the target's refusal of a taken id when one was seen. */
interface Probed {
  readonly exchanges: Exchange[];
  readonly duplicateRefusal: RefusalShape | undefined;
}

/** What every probe of a plan starts from: its operation's (counted) env and its first valid case for the seed, the body each probe sends with its id changed. */
interface ProbeStart {
  readonly plan: Plan;
  readonly env: RunEnv;
  readonly template: RequestCase | undefined;
}

function probeStart(plan: Plan, source: CaseSource, settings: Settings, envFor: EnvFor): ProbeStart {
  const [template] = fc.sample(source.validCases(plan.operation, { ...settings.caseContext, extraProperties: false }), { seed: settings.seed, numRuns: 1 });
  return { plan, env: envFor(plan.operation, true), template };
}

/**
 * The probes as every case of the operation (property.ts runCase): inside the env's `around`
 * (owned-items.ts), so a nested create (`POST /clusters/{uuid}/users`) goes under a parent the run
 * created for it, not under a drawn uuid a correct server answers 404 (DigitalOcean's
 * databases_add_user), and what they created deleted before that parent. Where the run cannot
 * create the parent, `around` sends no valid request, so nothing is probed (and nothing blamed).
 */
async function underOwnParent(identifier: RunIdentifier, start: ProbeStart): Promise<Probed | undefined> {
  const probe = (env: RunEnv) => (canDrawFresh(identifier) ? probeIds(identifier, { ...start, env }) : probeRepeat(identifier, { ...start, env }));
  let found: Probed | undefined;
  const exchanges = await runCase(
    start.env,
    async (inner) => {
      found = await probe(inner);
      return found?.exchanges ?? [];
    },
    start.template,
  );
  // around adds the parent's create to each exchange's steps (`before`), for the curl of a finding.
  return found === undefined ? undefined : { ...(found as Probed), exchanges };
}

/** The probes for one plan: a fresh id (a smaller one if an integer id was refused), then the same again. */
async function probeIds(identifier: RunIdentifier, { plan, env, template }: ProbeStart): Promise<Probed | undefined> {
  const probe = (id: IdValue | undefined) => (template === undefined || id === undefined ? undefined : withId(template, id, identifier));
  const firstId = freshIdValue(env.random, identifier);
  const first = probe(firstId);
  if (first === undefined || firstId === undefined) return undefined;
  const facts = (id: IdValue, extra: Partial<ExchangeFacts> = {}): ExchangeFacts => ({
    role: 'create',
    kind: 'valid',
    target: 'body',
    // The payload this id went in, its id included: tidying (tidy.ts) deletes the item by it.
    payload: (probe(id) ?? first).payload,
    id: sentId(id, 'fresh', identifier),
    ...extra,
  });
  const sent = await send(env, first, facts(firstId), `${validLabel(plan.operation, firstId)}, probing which ids the target takes`);
  if (sent === undefined) return undefined;
  let heldId = firstId;
  let accepted = sent.response.status !== undefined && isSuccess(sent.response.status);
  const own: Exchange[] = [];
  const space = identifier.kind === 'integer' ? identifier.space : undefined;
  if (!accepted && sent.response.status !== undefined && sent.response.status < 500 && space !== undefined && space.max > SAFE) {
    // Refused: is it the size? A fresh id below 2^53, the same plant otherwise.
    const narrowed = { min: space.min < -SAFE ? -SAFE : space.min, max: SAFE };
    const smallId = freshIdWithin(env.random, narrowed);
    const small = probe(smallId);
    const retry =
      small === undefined
        ? undefined
        : await send(
            env,
            small,
            { role: 'retry', kind: 'valid', target: 'body', payload: small.payload },
            `${validLabel(plan.operation, smallId)}, a smaller id after ${firstId} was refused`,
          );
    if (retry !== undefined && retry.response.status !== undefined && isSuccess(retry.response.status)) {
      // The run goes on with the ids the target takes; the refusal is reported once, as evidence.
      space.min = narrowed.min;
      space.max = narrowed.max;
      own.push({ ...sent, facts: { ...sent.facts, retry: { request: retry.request, response: retry.response } } }, retry);
      heldId = smallId;
      accepted = true;
    } else {
      own.push(sent, ...(retry === undefined ? [] : [retry]));
    }
  } else {
    own.push(sent);
  }
  let duplicateRefusal: RefusalShape | undefined;
  const again = probe(heldId);
  if (accepted && again !== undefined) {
    const repeat = await send(
      env,
      again,
      facts(heldId, { role: 'repeat', expect: 'either', because: `id ${idLabel(heldId)} was sent again to learn how the target refuses a taken id` }),
      `${validLabel(plan.operation, heldId)} again, to learn how a taken id is refused`,
      [own[own.length - 1]?.request ?? sent.request],
    );
    if (repeat !== undefined) {
      own.push(repeat);
      const status = repeat.response.status;
      if (status !== undefined && status >= 400 && status < 500) duplicateRefusal = shapeOf(status, repeat.response.body, heldId);
    }
  }
  return { exchanges: own, duplicateRefusal };
}

/**
 * Where no never-used id can be drawn (a sku of at most 2 characters): the first case's own id, sent
 * twice. Only when the first is accepted is the second's refusal the fingerprint of a taken id; the
 * first is a setup (it may be held from an earlier run), not judged as a valid create.
 */
async function probeRepeat(identifier: RunIdentifier, { plan, env, template }: ProbeStart): Promise<Probed | undefined> {
  const id = template === undefined ? undefined : idIn(template, identifier);
  if (template === undefined || id === undefined) return undefined;
  const facts = (extra: Partial<ExchangeFacts>): ExchangeFacts => ({
    role: 'setup',
    kind: 'valid',
    target: 'body',
    payload: template.payload,
    id: sentId(id, 'literal', identifier),
    ...extra,
  });
  const label = validLabel(plan.operation, id);
  const first = await send(env, template, facts({}), `${label}, to learn how a taken id is refused (no never-used id can be drawn)`);
  if (first === undefined) return undefined;
  if (first.response.status === undefined || !isSuccess(first.response.status)) return { exchanges: [first], duplicateRefusal: undefined };
  const repeat = await send(
    env,
    template,
    facts({ role: 'repeat', expect: 'either', because: `id ${idLabel(id)} was sent again to learn how the target refuses a taken id` }),
    `${label} again, to learn how a taken id is refused`,
    [first.request],
  );
  if (repeat === undefined) return { exchanges: [first], duplicateRefusal: undefined };
  const status = repeat.response.status;
  const learnt = status !== undefined && status >= 400 && status < 500 ? shapeOf(status, repeat.response.body, id) : undefined;
  return { exchanges: [first, repeat], duplicateRefusal: learnt };
}
