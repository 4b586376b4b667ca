/**
 * stateful-model: fast-check's model-based testing (fc.commands + fc.asyncModelRun) over
 * sequences of creates. The model is the set of ids the target must hold:
 *   - new id        → must be accepted, then it is held;
 *   - held id again → must be refused with --expect-unique-ids (either answer otherwise);
 *   - invalid body carrying a new id → refused, and that id must stay free;
 *   - free id (only seen in refused invalid bodies) → must be accepted.
 * Every id is drawn fresh for the run, so sequences never meet ids of other runs. A sequence
 * ends at the first disagreement (the model no longer knows the target's state), or at a
 * 5xx or transport error (which no-server-errors reports). A finding shrinks to the fewest
 * commands that still show it, and replays as shrunk (runner/sequence.ts).
 */
import fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { ExchangeFacts } from '../checks/index.js';
import { isClientError, isSuccess } from '../../src/core/openapi/operation.js';
import type { CaseContext, CaseSource, RequestCase } from './case-source.js';
import { freshIdValue, idLabel, keepsIdRules, sentId, type IdValue } from './identifier.js';
import { INT64_MAX, INT64_MIN } from './ids.js';
import { defineProperty, type Property } from './property.js';
import { invalidLabel, validLabel, type PropertySettings } from './properties.js';
import { idOf, send, sendCreate, withId, type RunEnv } from './send.js';
import { endIfBroken, newReal, record, runSequence, SequenceEnded, type SequenceReal } from './sequence.js';

interface Model {
  /** Held ids, oldest first, with the step that stored each. */
  readonly stored: Array<{ id: IdValue; step: number }>;
  /** Ids that appeared only in refused invalid requests. */
  readonly free: Array<{ id: IdValue; step: number }>;
}

interface Real extends SequenceReal {
  readonly expectUniqueIds: boolean;
}

type Command = fc.AsyncCommand<Model, Real, boolean>;

const MAX_COMMANDS = 16;

/**
 * `invalidFor`: the targets whose invalid requests every operation on the route refuses (an operation
 * sharing its route with others, Box's "#" alternatives: auth at most), as the invalid properties
 * take them; undefined: every one. Without the body among them no invalid body is sent: one invalid
 * for this operation may be another's valid one, and a correct server takes it.
 */
export function modelProperty(
  operation: Operation,
  source: CaseSource,
  context: CaseContext,
  settings: PropertySettings,
  invalidFor?: ReadonlySet<RequestCase['target']>,
): Property {
  // Plain plants (no undeclared properties): the model is about ids, and smaller bodies draw faster.
  const valid = source.validCases(operation, { ...context, extraProperties: false });
  const sendsInvalid = invalidFor === undefined || invalidFor.has('body');
  const invalidBodies = source.invalidCases(operation, { ...context, extraProperties: false }).filter((c) => c.target === 'body');
  const command = fc.oneof(
    valid.map(createNew),
    fc.tuple(valid, fc.nat()).map(([plant, pick]) => createAgain(plant, pick)),
    ...(sendsInvalid ? [invalidBodies.map(invalidNew), fc.tuple(valid, fc.nat()).map(([plant, pick]) => createFree(plant, pick))] : []),
  );
  // One size up from the default: sequences long enough to create, repeat and free ids in one run. An array, not
  // fc.commands, so that a finding shrinks to a sequence --replay sends again (runner/sequence.ts).
  const commands = fc.array(command, { maxLength: MAX_COMMANDS, size: '+1' });
  const runs = Math.max(10, Math.ceil(settings.runs / 8));
  return defineProperty('model', commands, runs, MAX_COMMANDS / 2, (sequence, env) =>
    runSequence<Model, Real>({ stored: [], free: [] }, { ...newReal(env), expectUniqueIds: settings.expectUniqueIds }, [sequence]),
  );
}

function facts(real: Real, plant: RequestCase, id: IdValue, expect: ExchangeFacts['expect'], because: string): ExchangeFacts {
  return {
    role: 'model',
    kind: 'valid',
    target: plant.target,
    payload: plant.payload,
    id: sentId(id, 'fresh', real.env.identifier),
    expect,
    because: `step ${real.step} of a model run: ${because}`,
  };
}

/** Sends a create the model says must be accepted; returns the id now held, if any. */
async function mustAccept(real: Real, plant: RequestCase, id: IdValue | undefined, because: string): Promise<IdValue | undefined> {
  const withNewId = id === undefined ? undefined : withId(plant, id, real.env.identifier);
  if (withNewId === undefined || id === undefined) return undefined;
  const label = `step ${real.step}: ${validLabel(real.env.operation, id)}, ${because}`;
  const exchanges = await sendCreate(real.env, withNewId, facts(real, withNewId, id, 'accept', because), label, [...real.sent]);
  const first = record(real, exchanges);
  endIfBroken(first);
  if (isSuccess(first.response.status ?? 0)) return id;
  const retry = first.facts.retry;
  if (retry !== undefined && isSuccess(retry.response.status ?? 0)) throw new SequenceEnded('a free id was refused');
  return undefined; // the plant itself was refused: nothing is held
}

function createNew(plant: RequestCase): Command {
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      const held = await mustAccept(real, plant, freshIdValue(real.env.random, real.env.identifier), 'a never-used id');
      if (held !== undefined) model.stored.push({ id: held, step: real.step });
    },
    toString: () => `createNew(${plant.body ?? ''})`,
  };
}

function createAgain(plant: RequestCase, pick: number): Command {
  return {
    check: (model) => model.stored.length > 0,
    async run(model, real) {
      real.step += 1;
      const held = model.stored[pick % model.stored.length];
      if (held === undefined) return;
      const again = withId(plant, held.id, real.env.identifier);
      if (again === undefined) return;
      const because = `id ${idLabel(held.id)} was accepted at step ${held.step}`;
      const expect = real.expectUniqueIds ? 'refuse' : 'either';
      const exchange = await send(
        real.env,
        again,
        facts(real, again, held.id, expect, because),
        `step ${real.step}: ${validLabel(real.env.operation, held.id)}, an id already held`,
        [...real.sent],
      );
      const first = record(real, exchange === undefined ? [] : [exchange]);
      endIfBroken(first);
      if (real.expectUniqueIds && !isClientError(first.response.status ?? 0)) throw new SequenceEnded('a held id was accepted again');
    },
    toString: () => `createAgain(#${pick}, ${plant.body ?? ''})`,
  };
}

function invalidNew(invalid: RequestCase): Command {
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      // Only an id that is itself valid is replaced: the request must stay invalid for its other reason.
      const generated = idOf(invalid, real.env.identifier);
      const id = freshIdValue(real.env.random, real.env.identifier);
      const valid =
        typeof generated === 'string'
          ? keepsIdRules(generated, real.env.identifier)
          : generated !== undefined && generated >= INT64_MIN && generated <= INT64_MAX;
      const carried = valid && id !== undefined ? withId(invalid, id, real.env.identifier) : undefined;
      const toSend = carried ?? invalid;
      const exchange = await send(
        real.env,
        toSend,
        {
          role: 'model',
          kind: 'invalid',
          target: toSend.target,
          breaks: toSend.breaks,
          payload: toSend.payload,
        },
        `step ${real.step}: ${invalidLabel(toSend)}`,
        [...real.sent],
      );
      const first = record(real, exchange === undefined ? [] : [exchange]);
      endIfBroken(first);
      if (carried !== undefined && id !== undefined && isClientError(first.response.status ?? 0)) model.free.push({ id, step: real.step });
    },
    toString: () => `invalidNew(${invalid.breaks ?? ''}: ${invalid.body ?? ''})`,
  };
}

function createFree(plant: RequestCase, pick: number): Command {
  return {
    check: (model) => model.free.length > 0,
    async run(model, real) {
      real.step += 1;
      const [free] = model.free.splice(pick % model.free.length, 1);
      if (free === undefined) return;
      const held = await mustAccept(real, plant, free.id, `id ${idLabel(free.id)} appeared only in an invalid request refused at step ${free.step}`);
      if (held !== undefined) model.stored.push({ id: held, step: real.step });
    },
    toString: () => `createFree(#${pick}, ${plant.body ?? ''})`,
  };
}
