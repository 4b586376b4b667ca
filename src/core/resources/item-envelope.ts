/**
 * Whether a resource's item bodies are wrapped in one property (`{"article": {...}}`), settled
 * from the create body and the item answers read through core/schema/envelope.ts, or named by an
 * override's `envelope`. Inferred only where every one of them wraps its item in the same property
 * and at least one answer does: one object property in a create body alone may well be the item.
 */
import type { BodySchema } from '../openapi/operation.js';
import { itemWrapper, wrappedItem } from '../schema/envelope.js';
import { objectShape } from '../schema/properties.js';
import type { Envelope } from './model.js';
import { configWhere, overrideError, type OverrideOrigin } from './overrides.js';

export interface ItemBodies {
  readonly create?: BodySchema | undefined;
  readonly createAnswer?: BodySchema | undefined;
  readonly readAnswer?: BodySchema | undefined;
}

export interface SettledEnvelope {
  readonly envelope?: Envelope;
  /** The bodies with the item taken out of its envelope where there is one. */
  readonly bodies: ItemBodies;
}

export function settleEnvelope(bodies: ItemBodies, named: string | false | undefined, origin: OverrideOrigin | undefined, path: string): SettledEnvelope {
  if (named === false) return { bodies };
  const property = named ?? inferredProperty(bodies);
  if (property === undefined) return { bodies };
  const create = wrappedItem(bodies.create, property);
  const createAnswer = wrappedItem(bodies.createAnswer, property);
  const readAnswer = wrappedItem(bodies.readAnswer, property);
  if (create === undefined && createAnswer === undefined && readAnswer === undefined) {
    const known = [bodies.create, bodies.createAnswer, bodies.readAnswer].flatMap((schema) =>
      schema === undefined ? [] : [...objectShape(schema).properties.keys()],
    );
    throw overrideError(
      origin ?? { source: 'config', where: configWhere(path) },
      `"envelope": "${property}" wraps nothing: neither the create body nor an item answer of ${path} has an object property "${property}" (they have: ${[...new Set(known)].join(', ') || 'no properties'})`,
    );
  }
  const envelope: Envelope = {
    ...(create !== undefined ? { request: property } : {}),
    ...(createAnswer !== undefined || readAnswer !== undefined ? { answer: property } : {}),
  };
  return {
    envelope,
    bodies: {
      ...(bodies.create !== undefined ? { create: create ?? bodies.create } : {}),
      ...(bodies.createAnswer !== undefined ? { createAnswer: createAnswer ?? bodies.createAnswer } : {}),
      ...(bodies.readAnswer !== undefined ? { readAnswer: readAnswer ?? bodies.readAnswer } : {}),
    },
  };
}

/**
 * The one property every present answer wraps its item in, when the create body wraps it there too,
 * or sends the item bare: DigitalOcean's POST /v2/tags takes a Tag and answers {"tag": Tag}. A bare
 * body counts only where the wrapped item declares one of its properties (the body is that item).
 */
function inferredProperty(bodies: ItemBodies): string | undefined {
  const answers = [bodies.createAnswer, bodies.readAnswer].filter((schema) => schema !== undefined);
  const wrappers = answers.map((schema) => itemWrapper(schema));
  const properties = new Set(wrappers.map((wrapper) => wrapper?.property));
  const [only] = properties;
  if (only === undefined || properties.size !== 1 || bodies.create === undefined) return only;
  const sent = itemWrapper(bodies.create);
  if (sent !== undefined) return sent.property === only ? only : undefined;
  const item = objectShape(wrappers[0]?.item).properties;
  return [...objectShape(bodies.create).properties.keys()].some((name) => item.has(name)) ? only : undefined;
}

/** A wrapping property the bodies have, to name in advice when no identifier was found through them. */
export function envelopeHint(bodies: ItemBodies): string | undefined {
  return [bodies.create, bodies.createAnswer, bodies.readAnswer].map((schema) => itemWrapper(schema)?.property).find((property) => property !== undefined);
}
