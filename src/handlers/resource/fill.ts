/**
 * Values for the properties an answer requires and the request did not carry (a `createdAt`, a
 * `status`): made once at create and stored, so every later answer shows the same. Each is the
 * schema's one small valid value (core/schema/value.ts: const, enum, default, example, else one of
 * its type), made fresh where that matters (a date-time is the moment of creation, a uuid random).
 * A writeOnly property is never made up: no answer shows it. Compiled at bind time.
 */
import type { ItemFields } from '../../store/item-store.js';
import { objectShape } from '../../core/schema/properties.js';
import { valueMaker as schemaValueMaker, type ValueMaker } from '../../core/schema/value.js';

export type { ValueMaker };

/** A maker of a value valid against `schema`, as stored for an answer. */
export function valueMaker(schema: unknown): ValueMaker {
  return schemaValueMaker(schema, { fresh: true, direction: 'response' });
}

/** Fills what `fields` lacks of the required properties of `schema`; gives the fields back as they were when nothing is missing. */
export type Fill = (fields: ItemFields) => ItemFields;

const IDENTITY: Fill = (fields) => fields;

/** Compiles the fill of an object schema's required properties. */
export function compileFill(schema: unknown): Fill {
  const shape = objectShape(schema, { direction: 'response' });
  const makers = [...shape.required].filter((name) => !shape.writeOnly.has(name)).map((name) => [name, valueMaker(shape.properties.get(name))] as const);
  if (makers.length === 0) return IDENTITY;
  return (fields) => {
    let filled: Record<string, ItemFields[string]> | undefined;
    for (const [name, make] of makers) {
      if (Object.hasOwn(fields, name)) continue;
      filled ??= { ...fields };
      filled[name] = make();
    }
    return filled ?? fields;
  };
}

/** Applies fills in turn (the create answer's schema, then the item's). */
export function fillAll(fills: readonly Fill[]): Fill {
  const active = fills.filter((fill) => fill !== IDENTITY);
  if (active.length === 0) return IDENTITY;
  if (active.length === 1) return active[0] as Fill;
  return (fields) => active.reduce((current, fill) => fill(current), fields);
}
