/**
 * A mocked body that lacks properties its schema requires, completed. A document's examples may
 * leave out a property a `required` list names (Box's shared link requires `accessed`, which it
 * never declares, so no example or generated value holds it): each missing one gets its schema's
 * small value (core/schema/value.ts; any value where the property is undeclared). Where it goes
 * and what it is come from the judge's own errors (rawErrorsOf): the errors' value path and the
 * schema that requires it. The result counts only if the same judge then passes it.
 */
import { rawErrorsOf, schemaAtSteps, type BodyCheck } from '../core/prism/adapter.js';
import type { JsonValue } from '../core/json/exact-json.js';
import { objectShape } from '../core/schema/properties.js';
import { valueMaker, type ValueMaker } from '../core/schema/value.js';

/** A property to add: the object it goes in (its path in the body) and how its value is made. */
export interface RequiredFill {
  readonly at: readonly string[];
  readonly property: string;
  readonly make: ValueMaker;
}

/** Rounds of filling: a made value may hold an object whose own required properties a later round adds. */
const ROUNDS = 4;

/**
 * The fills that make `body` pass `check`, found by the check's own errors; undefined when filling
 * required properties is not enough (another fault remains) or nothing is missing.
 */
export function requiredFills(check: BodyCheck, body: JsonValue): readonly RequiredFill[] | undefined {
  const fills: RequiredFill[] = [];
  let current = body;
  for (let round = 0; round < ROUNDS; round++) {
    const found = missingIn(check, current).filter((fill) => !fills.some((known) => sameFill(known, fill)));
    if (found.length === 0) break;
    fills.push(...found);
    current = withFills(body, fills);
  }
  return fills.length > 0 && check(current) === undefined ? fills : undefined;
}

/** `body` with each fill applied where its object is and the property is absent (a copy; `body` is not changed). */
export function withFills(body: JsonValue, fills: readonly RequiredFill[]): JsonValue {
  const copy = structuredClone(body);
  for (const { at, property, make } of fills) {
    const target = at.reduce<JsonValue | undefined>((value, step) => (isObjectOrArray(value) ? (value as Record<string, JsonValue>)[step] : undefined), copy);
    if (isPlainObject(target) && !Object.hasOwn(target, property)) target[property] = make();
  }
  return copy;
}

function missingIn(check: BodyCheck, body: JsonValue): RequiredFill[] {
  const fills: RequiredFill[] = [];
  for (const error of rawErrorsOf(check, body)) {
    const property = error.params.missingProperty;
    if (error.keyword !== 'required' || typeof property !== 'string') continue;
    const fill = {
      at: pointerSteps(error.instancePath, false),
      property,
      make: valueMaker(declared(check, error.schemaPath, property), { direction: 'response' }),
    };
    // A oneOf's branches may each say the same property is missing at the same place.
    if (!fills.some((known) => sameFill(known, fill))) fills.push(fill);
  }
  return fills;
}

/** The schema the object whose `required` (at `schemaPath`) names `property` declares for it; {} (any value) when it declares none. */
function declared(check: BodyCheck, schemaPath: string, property: string): unknown {
  const owner = schemaAtSteps(check, pointerSteps(schemaPath.replace(/^#/, ''), true).slice(0, -1));
  return objectShape(owner, { direction: 'response' }).properties.get(property) ?? {};
}

/** A JSON pointer's steps, unescaped (RFC 6901); Ajv writes a schema path (a URI fragment) URI-encoded too. */
function pointerSteps(pointer: string, uriEncoded: boolean): string[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((step) => (uriEncoded ? decodeStep(step) : step).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function decodeStep(step: string): string {
  try {
    return decodeURIComponent(step);
  } catch {
    return step;
  }
}

function sameFill(a: RequiredFill, b: RequiredFill): boolean {
  return a.property === b.property && a.at.length === b.at.length && a.at.every((step, index) => step === b.at[index]);
}

function isObjectOrArray(value: JsonValue | undefined): boolean {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
