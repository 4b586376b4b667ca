/**
 * The suite's properties for one operation: valid creates, invalid requests, and duplicate-id
 * scenarios (the stateful model is in model.ts). Each run returns every exchange it made;
 * the checks judge them afterwards.
 */
import fc from 'fast-check';
import { type Operation } from '../../src/core/openapi/load-document.js';
import { operationName } from '../../src/core/openapi/operation.js';
import type { Exchange } from '../checks/index.js';
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { CaseContext, CaseSource, RequestCase } from './case-source.js';
import { freshenId, freshIdValue, idLabel, sentId, type IdValue, type SentIdValue } from './identifier.js';
import { freshNeighbourBase } from './ids.js';
import { defineEnumeration, defineProperty, type Property } from './property.js';
import { idOf, send, sendCreate, withId, type RunEnv } from './send.js';

export interface PropertySettings {
  readonly runs: number;
  readonly expectUniqueIds: boolean;
}

export function validLabel(operation: Operation, id?: IdValue): string {
  return `valid ${operationName(operation)} request${id === undefined ? '' : ` (id ${idLabel(id)})`}`;
}

export function invalidLabel(requestCase: RequestCase): string {
  return `invalid request, ${requestCase.breaks ?? `wrong ${requestCase.target}`}`;
}

/** A valid create, its id made fresh where that keeps the case's point (see ids.ts, string-ids.ts). */
export async function createCase(env: RunEnv, requestCase: RequestCase): Promise<Exchange[]> {
  const identifier = env.identifier;
  // A replace's or update's id names the item in its path too: changing it would name another item.
  const generated = env.bodyNamesPathItem === true ? undefined : idOf(requestCase, identifier);
  let toSend = requestCase;
  let id: SentIdValue | undefined;
  const space = identifier?.kind === 'integer' ? identifier.space : undefined;
  if (typeof generated === 'bigint' && space !== undefined && (generated < space.min || generated > space.max)) {
    // Outside the ids this target takes (an int32 identifier, or a target found to refuse ids ≥ 2^53):
    // that refusal is reported once (evidence.ts); the case goes on with an id it takes.
    const value = freshIdValue(env.random, identifier, generated < 0n);
    const changed = value === undefined ? undefined : withId(requestCase, value, identifier);
    if (changed !== undefined && value !== undefined) {
      toSend = changed;
      id = sentId(value, 'fresh', identifier);
    }
  } else if (generated !== undefined) {
    const candidate = freshenId(generated, identifier, env.random);
    const changed = candidate.freshness === 'fresh' ? withId(requestCase, candidate.value, identifier) : undefined;
    toSend = changed ?? requestCase;
    id = changed === undefined ? sentId(generated, 'literal', identifier) : sentId(candidate.value, 'fresh', identifier);
  }
  // A drawn id in the path names an item the target need not hold (a 404 is a right answer).
  const absent = env.operation.path.includes('{') ? { itemMayBeAbsent: true } : {};
  return sendCreate(
    env,
    toSend,
    { role: 'create', kind: 'valid', target: toSend.target, payload: toSend.payload, id, ...absent },
    validLabel(env.operation, id?.value),
  );
}

export function validProperty(operation: Operation, source: CaseSource, context: CaseContext, settings: PropertySettings): Property {
  return defineProperty('valid', source.validCases(operation, context), settings.runs, 1.05, (requestCase, env) => createCase(env, requestCase));
}

/** The boundary values (empty name, NUL, emoji, int64 extremes, 2^53 neighbours, …), all of them on every run. */
export function boundaryProperty(operation: Operation, source: CaseSource, context: CaseContext): Property[] {
  const cases = source.boundaryCases?.(operation, context) ?? [];
  return cases.length === 0 ? [] : [defineEnumeration('boundary', cases, 1.05, (requestCase, env) => createCase(env, requestCase))];
}

/**
 * Invalid requests. With families from the source, one property per family ("invalid#3"),
 * each with an equal share of the runs and at least MIN_RUNS_PER_FAMILY, so that a rare kind of
 * breakage (one of thirty) is not left to chance; otherwise one property over invalidCases.
 */
export function invalidProperties(
  operation: Operation,
  source: CaseSource,
  context: CaseContext,
  settings: PropertySettings,
  /** Only the families of these targets (an operation sharing its route: auth alone); undefined: every one. */
  targets?: ReadonlySet<RequestCase['target']>,
): Property[] {
  if (targets !== undefined && source.invalidCaseFamilies === undefined) return [];
  if (source.invalidCaseFamilies !== undefined) {
    const families = source.invalidCaseFamilies(operation, context).filter((family) => targets === undefined || targets.has(family.target));
    // An operation with nothing to break (no body, no typed parameter, no credentials) has no invalid property.
    const share = Math.max(MIN_RUNS_PER_FAMILY, Math.ceil(settings.runs / Math.max(1, families.length)));
    return families.map((family, index) => invalidProperty(`invalid#${index}`, family.arbitrary, share));
  }
  return [invalidProperty('invalid', source.invalidCases(operation, context), settings.runs)];
}

const MIN_RUNS_PER_FAMILY = 3;

export function invalidProperty(name: string, cases: fc.Arbitrary<RequestCase>, runs: number): Property {
  return defineProperty(name, cases, runs, 1, async (requestCase, env) => {
    const facts = {
      role: 'reject' as const,
      kind: 'invalid' as const,
      target: requestCase.target,
      breaks: requestCase.breaks,
      payload: requestCase.payload,
    };
    const exchange = await send(env, requestCase, facts, invalidLabel(requestCase));
    return exchange === undefined ? [] : [exchange];
  });
}

interface DuplicateScenario {
  readonly first: RequestCase;
  readonly mode: 'repeat' | 'neighbour';
  readonly delta: 1n | -1n;
  readonly negative: boolean;
}

/**
 * Two creates: a fresh id X, then X again (repeat); or a fresh B above 2^53 and then B±1,
 * which rounds to the same double (neighbour). The second is sent only when the first was accepted.
 */
export function duplicateProperty(operation: Operation, source: CaseSource, context: CaseContext, settings: PropertySettings): Property {
  // Plain plants (no undeclared properties): these scenarios are about ids.
  const valid = source.validCases(operation, { ...context, extraProperties: false });
  const scenario: fc.Arbitrary<DuplicateScenario> = fc.record({
    first: valid,
    mode: fc.constantFrom('repeat' as const, 'neighbour' as const),
    delta: fc.constantFrom(1n as const, -1n as const),
    negative: fc.boolean(),
  });
  const runs = Math.max(8, Math.ceil(settings.runs / 4));
  return defineProperty('duplicate', scenario, runs, 2, (value, env) => runDuplicateScenario(env, value, settings.expectUniqueIds));
}

async function runDuplicateScenario(env: RunEnv, scenario: DuplicateScenario, expectUniqueIds: boolean): Promise<Exchange[]> {
  const identifier = env.identifier;
  // Neighbours above 2^53 only where the ids reach that far (integer ids; not int32, not on a target that refuses them).
  const reach = identifier === undefined || (identifier.kind === 'integer' && identifier.space.max > 2n ** 62n);
  if (scenario.mode === 'neighbour' && reach) {
    const sign = scenario.negative ? -1n : 1n;
    const base = sign * freshNeighbourBase(env.random);
    return pairOfCreates(env, scenario.first, base, base + sign * scenario.delta, 'fresh', 'neighbour', expectUniqueIds);
  }
  const id = freshIdValue(env.random, identifier, scenario.negative);
  return id === undefined ? [] : pairOfCreates(env, scenario.first, id, id, 'fresh', 'repeat', expectUniqueIds);
}

/**
 * The one fixed neighbour pair 2^53, 2^53+1 from the document's own example. Sent as is, so
 * on a target that kept them from an earlier run it proves nothing (and claims nothing).
 */
export async function literalNeighbours(env: RunEnv, plant: RequestCase, expectUniqueIds: boolean): Promise<Exchange[]> {
  return pairOfCreates(env, plant, 2n ** 53n, 2n ** 53n + 1n, 'literal', 'neighbour', expectUniqueIds);
}

/** Two creates of the same body that differ only in the id, so whatever the second answer says is about the id. */
async function pairOfCreates(
  env: RunEnv,
  plant: RequestCase,
  firstId: IdValue,
  secondId: IdValue,
  freshness: 'fresh' | 'literal',
  mode: 'repeat' | 'neighbour',
  expectUniqueIds: boolean,
): Promise<Exchange[]> {
  const first = withId(plant, firstId, env.identifier);
  const second = withId(plant, secondId, env.identifier);
  if (first === undefined || second === undefined) return [];
  const setup = await send(
    env,
    first,
    { role: 'setup', kind: 'valid', target: first.target, payload: first.payload, id: sentId(firstId, freshness, env.identifier) },
    validLabel(env.operation, firstId),
  );
  if (setup === undefined) return [];
  if (setup.response.status === undefined || !isSuccess(setup.response.status)) return [setup];
  const before = [setup.request];
  if (mode === 'repeat') {
    const repeat = await send(
      env,
      second,
      {
        role: 'repeat',
        kind: 'valid',
        target: second.target,
        payload: second.payload,
        id: sentId(secondId, freshness, env.identifier),
        expect: expectUniqueIds ? 'refuse' : 'either',
        because: `id ${idLabel(secondId)} was sent again right after the target accepted it (${setup.response.status})`,
      },
      `${validLabel(env.operation, secondId)} re-using an id just stored`,
      before,
    );
    return repeat === undefined ? [setup] : [setup, repeat];
  }
  const neighbour = await sendCreate(
    env,
    second,
    {
      role: 'neighbour',
      kind: 'valid',
      target: second.target,
      payload: second.payload,
      id: sentId(secondId, freshness, env.identifier),
      expect: 'accept',
      because: `right after ${firstId} was accepted (both are the same double, ${Number(firstId)})`,
    },
    `${validLabel(env.operation, secondId)} right after id ${firstId}`,
    before,
  );
  return [setup, ...neighbour];
}
