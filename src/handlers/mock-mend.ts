/**
 * A mocked body that lacks properties its schema requires, completed. A document's examples may
 * leave out a property a `required` list names (Box's shared link requires `accessed`, which it
 * never declares, so no example or generated value holds it): each missing one gets its schema's
 * small value (core/schema/value.ts; any value where the property is undeclared). An example of
 * another type than its schema says (Box's collaboration `created_by`, an array for an object) is
 * replaced by the schema's small value likewise. Where each goes and what it is come from the
 * judge's own errors (rawErrorsOf): the value's path and the schema that says what it must be.
 * The result counts only if the same judge then passes it.
 */
import { rawErrorsOf, schemaAtSteps, type BodyCheck, type RawSchemaError } from '../core/prism/adapter.js';
import type { JsonValue } from '../core/json/exact-json.js';
import { isSchema } from '../core/schema/normalise.js';
import { objectShape } from '../core/schema/properties.js';
import { valueMaker, type ValueMaker } from '../core/schema/value.js';

/** A property to add (or a value to replace): the object or array it is in (its path in the body), its name there, and how its value is made. */
export interface RequiredFill {
  readonly at: readonly string[];
  readonly property: string;
  readonly make: ValueMaker;
  /** A value of another type than its schema's, replaced (Box's example of a collaboration's `created_by`, an array for an object); else a missing one added. */
  readonly replaces?: true;
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

/** `body` with each replacement made and each fill applied where its object is and the property is absent (a copy; `body` is not changed). */
export function withFills(body: JsonValue, fills: readonly RequiredFill[]): JsonValue {
  const copy = structuredClone(body);
  // Replacements first: a value made for a replaced one holds what its schema requires.
  for (const { at, property, make, replaces } of [...fills.filter((fill) => fill.replaces), ...fills.filter((fill) => !fill.replaces)]) {
    const target = at.reduce<JsonValue | undefined>((value, step) => (isObjectOrArray(value) ? (value as Record<string, JsonValue>)[step] : undefined), copy);
    if (!isObjectOrArray(target)) continue;
    const holder = target as Record<string, JsonValue>;
    if (replaces === true ? Object.hasOwn(holder, property) : isPlainObject(target) && !Object.hasOwn(holder, property)) holder[property] = make();
  }
  return copy;
}

/** Alternatives: a branch's own type is one choice, not what the value must be. */
const ALTERNATIVES = new Set(['oneOf', 'anyOf']);
/** Under these, a type error says nothing the value must be. */
const CONDITIONS = new Set(['not', 'if', 'then', 'else']);

function missingIn(check: BodyCheck, body: JsonValue): RequiredFill[] {
  const fills: RequiredFill[] = [];
  for (const error of rawErrorsOf(check, body)) {
    const fill = error.keyword === 'required' ? requiredFill(check, error) : error.keyword === 'type' ? typeFill(check, error) : undefined;
    // A oneOf's branches may each say the same property is missing at the same place.
    if (fill !== undefined && !fills.some((known) => sameFill(known, fill))) fills.push(fill);
  }
  return fills;
}

function requiredFill(check: BodyCheck, error: RawSchemaError): RequiredFill | undefined {
  const property = error.params.missingProperty;
  if (typeof property !== 'string') return undefined;
  return { at: pointerSteps(error.instancePath, false), property, make: valueMaker(declared(check, error.schemaPath, property), { direction: 'response' }) };
}

/**
 * A value of the wrong type, replaced by the small value of the schema that says its type; not where
 * that schema is itself one of alternatives (a nullable's `null` branch) or under a condition.
 */
function typeFill(check: BodyCheck, error: RawSchemaError): RequiredFill | undefined {
  const steps = pointerSteps(error.schemaPath.replace(/^#/, ''), true);
  const at = pointerSteps(error.instancePath, false);
  const property = at.pop();
  if (property === undefined || ALTERNATIVES.has(steps.at(-3) ?? '') || steps.some((step) => CONDITIONS.has(step))) return undefined;
  return { at, property, make: valueMaker(withoutExamples(schemaAtSteps(check, steps.slice(0, -1))), { direction: 'response' }), replaces: true };
}

/** The schema without its own examples: the wrong value often is one (Box's `created_by` example, an array for an object). */
function withoutExamples(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const { example: _example, examples: _examples, ...rest } = schema;
  return rest;
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
  return a.property === b.property && a.replaces === b.replaces && a.at.length === b.at.length && a.at.every((step, index) => step === b.at[index]);
}

function isObjectOrArray(value: JsonValue | undefined): boolean {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
