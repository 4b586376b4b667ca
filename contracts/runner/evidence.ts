/**
 * Judgement by evidence, learnt from the target at the start of the run for each create of
 * client-assigned integer ids:
 *   - which ids it takes: a fresh id as large as the identifier allows; if that is refused and a
 *     fresh one below 2^53 is accepted, the run goes on with ids below 2^53 (the refusal is judged
 *     once, by positive-acceptance, as a refused valid id), so duplicate and lifecycle checks still run;
 *   - how it refuses a taken id: the same fresh id sent twice; the second answer's status, error
 *     code and message (values taken out) are the fingerprint a later refusal of an edge id
 *     (0, the int64 extremes) must match to be excused as "perhaps stored by an earlier run".
 */
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { Exchange, ExchangeFacts, RefusalShape } from '../checks/index.js';
import { shapeOf } from '../checks/refusal-shape.js';
import type { CaseSource } from './case-source.js';
import fc from 'fast-check';
import { freshIdFor } from './ids.js';
import type { EnvFor, Plan } from './plan.js';
import { validLabel } from './properties.js';
import { send, withId } from './send.js';
import type { Settings } from './settings.js';

const SAFE = 2n ** 53n - 1n;

export interface Evidence {
  readonly plans: Plan[];
  /** The probes' exchanges, judged like any other (a refused fresh id is a finding). */
  readonly exchanges: ReadonlyArray<{ readonly plan: number; readonly exchanges: Exchange[] }>;
}

export async function gatherEvidence(plans: readonly Plan[], source: CaseSource, settings: Settings, envFor: EnvFor): Promise<Evidence> {
  const exchanges: Array<{ plan: number; exchanges: Exchange[] }> = [];
  const learnt: Plan[] = [];
  for (const [index, plan] of plans.entries()) {
    const ids = plan.ids;
    if (ids === undefined) {
      learnt.push(plan);
      continue;
    }
    const env = envFor(plan.operation, true);
    const [template] = fc.sample(source.validCases(plan.operation, { ...settings.caseContext, extraProperties: false }), { seed: settings.seed, numRuns: 1 });
    const probe = (id: bigint) => (template === undefined ? undefined : withId(template, id));
    const first = probe(freshIdFor(env));
    if (first === undefined) {
      learnt.push(plan);
      continue;
    }
    const facts = (id: bigint, extra: Partial<ExchangeFacts> = {}): ExchangeFacts => ({
      role: 'create',
      kind: 'valid',
      target: 'body',
      // The payload this id went in (first carries another fresh id).
      payload: (probe(id) ?? first).payload,
      id: { value: id, freshness: 'fresh' },
      ...extra,
    });
    const firstId = freshIdFor(env);
    const sent = await send(env, probe(firstId) ?? first, facts(firstId), `${validLabel(plan.operation, firstId)}, probing which ids the target takes`);
    if (sent === undefined) {
      learnt.push(plan);
      continue;
    }
    let heldId = firstId;
    let accepted = sent.response.status !== undefined && isSuccess(sent.response.status);
    const own: Exchange[] = [];
    if (!accepted && sent.response.status !== undefined && sent.response.status < 500 && ids.max > SAFE) {
      // Refused: is it the size? A fresh id below 2^53, the same plant otherwise.
      const narrowed = { min: ids.min < -SAFE ? -SAFE : ids.min, max: SAFE };
      const smallId = freshIdFor({ random: env.random, ids: narrowed });
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
        ids.min = narrowed.min;
        ids.max = narrowed.max;
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
        facts(heldId, { role: 'repeat', expect: 'either', because: `id ${heldId} was sent again to learn how the target refuses a taken id` }),
        `${validLabel(plan.operation, heldId)} again, to learn how a taken id is refused`,
        [own[own.length - 1]?.request ?? sent.request],
      );
      if (repeat !== undefined) {
        own.push(repeat);
        const status = repeat.response.status;
        if (status !== undefined && status >= 400 && status < 500) duplicateRefusal = shapeOf(status, repeat.response.body);
      }
    }
    exchanges.push({ plan: index, exchanges: own });
    learnt.push(duplicateRefusal === undefined ? plan : { ...plan, context: { ...plan.context, duplicateRefusal } });
  }
  return { plans: learnt, exchanges };
}
