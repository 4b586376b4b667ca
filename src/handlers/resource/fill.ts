/**
 * Values for the properties an answer requires and the request did not carry (a `createdAt`, a
 * `status`): made once at create and stored, so every later answer shows the same. Each is the
 * schema's one small valid value (core/schema/value.ts: const, enum, default, example, else one of
 * its type), made fresh where that matters (a date-time is the moment of creation, a uuid random).
 * A writeOnly property is never made up: no answer shows it. Compiled at bind time.
 */
import type { ItemFields, ItemStore } from '../../store/item-store.js';
import type { Resource, ServerField } from '../../core/resources/model.js';
import { EMPTY_SLUG, NUMBERED_CANDIDATES, numbered, slugCheck, slugify } from '../../core/resources/slug.js';
import { normalise } from '../../core/schema/normalise.js';
import { objectShape } from '../../core/schema/properties.js';
import { formatOf } from '../../core/schema/types.js';
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

/**
 * The resource's server-made fields (core/resources/server-fields.ts) applied: at create, every
 * planned property the request did not give is made (a slug unique in the collection, the times,
 * 0, false, the schema's stated value or a placeholder); at a change (PUT, PATCH), the stored values
 * are kept and the updated-time moves on. A property the operation's request body declares writable
 * keeps what the client gave; otherwise the server's value wins, as a real API ignores a client's
 * createdAt. A slug is kept on change, even when its source changes: the item's address stays
 * valid (docs/resources.md, "Server-made fields").
 */
export interface ServerMade {
  /** True when the resource plans no server-made field: `create` gives the body back as it is (the create skips the wait for it). */
  readonly makesNothing: boolean;
  /** The identifier's slug, when the identifier is made from the item's text; undefined otherwise. */
  readonly identifierSlug: SlugMaker | undefined;
  /** At create: the planned fields the body lacks, made (the identifier's slug aside: the handler keys the item by it). */
  create(fields: ItemFields, store: ItemStore): Promise<ItemFields>;
  /** At a change: `next` with the stored server-made values kept and the updated-time refreshed. */
  change(current: ItemFields, next: ItemFields, given: ItemFields): ItemFields;
}

export interface SlugMaker {
  /** The slug's candidates in turn: the base, then -2 … -10, then numbered by `allocate` (unique per collection). */
  candidates(fields: ItemFields, allocate: () => Promise<bigint>): AsyncGenerator<string>;
}

const NO_SERVER_MADE: ServerMade = {
  makesNothing: true,
  identifierSlug: undefined,
  create: (fields) => Promise.resolve(fields),
  change: (_current, next) => next,
};

/** Candidates a slug tries before giving up on it (a seed may hold many of the numbered ones). */
const SLUG_ATTEMPTS = 1000;

/** `answerSchemas`: the operation's success answer and the item's, where each field's schema is looked up. */
export function compileServerMade(resource: Resource, requestSchema: unknown, answerSchemas: readonly unknown[]): ServerMade {
  const plan = resource.serverFields ?? [];
  if (plan.length === 0) return NO_SERVER_MADE;
  const answers = new Map(answerSchemas.flatMap((schema) => [...objectShape(schema, { direction: 'response' }).properties]).reverse());
  const writable = requestSchema === undefined ? new Set<string>() : new Set(objectShape(requestSchema, { direction: 'request' }).properties.keys());
  const id = resource.identifier.property;
  const fields = plan.map((field) => ({ field, schema: answers.get(field.property) ?? {} }));
  const makers = fields.filter(({ field }) => field.kind !== 'slug').map(({ field, schema }) => [field.property, fieldMaker(field, schema)] as const);
  const slugs = fields.filter(({ field }) => field.kind === 'slug').map(({ field, schema }) => [field.property, slugMaker(field.from ?? '', schema)] as const);
  const identifierSlug = slugs.find(([property]) => property === id)?.[1];
  const otherSlugs = slugs.filter(([property]) => property !== id);
  const updated = new Set(plan.filter((field) => field.kind === 'updated-time').map((field) => field.property));
  const kept = (property: string, request: ItemFields) => writable.has(property) && Object.hasOwn(request, property);

  return {
    makesNothing: false,
    identifierSlug,
    async create(body, store) {
      const made: Record<string, ItemFields[string]> = { ...body };
      const now = new Date();
      for (const [property, make] of makers) if (!kept(property, body)) made[property] = make(now, undefined);
      for (const [property, slug] of otherSlugs) {
        if (kept(property, body)) continue;
        made[property] = await firstFree(
          slug.candidates(body, () => store.allocate()),
          async (candidate) => {
            const { items } = await store.list({ where: { [property]: candidate }, limit: 1 });
            return items.length === 0;
          },
        );
      }
      return made;
    },
    change(current, next, given) {
      const changed: Record<string, ItemFields[string]> = { ...next };
      const now = new Date();
      for (const [property, make] of makers) {
        if (property === id || kept(property, given)) continue;
        const stored = current[property];
        changed[property] = updated.has(property) || stored === undefined ? make(now, stored) : stored;
      }
      for (const [property, slug] of otherSlugs) {
        if (kept(property, given)) continue;
        changed[property] = current[property] ?? slug.base(next);
      }
      return changed;
    },
  };
}

type FieldMaker = (now: Date, previous: ItemFields[string] | undefined) => ItemFields[string];

function fieldMaker(field: ServerField, schema: unknown): FieldMaker {
  const format = formatOf(schema);
  switch (field.kind) {
    case 'created-time':
      return (now) => timeText(now, format);
    case 'updated-time':
      // Moves on at each change, even within one millisecond: a client comparing times sees the change.
      return (now, previous) => {
        const before = typeof previous === 'string' && format !== 'date' ? Date.parse(previous) : NaN;
        return timeText(Number.isNaN(before) || now.getTime() > before ? now : new Date(before + 1), format);
      };
    case 'counter':
      return () => 0;
    case 'flag':
      return () => false;
    default: {
      const make = valueMaker(schema);
      return () => make();
    }
  }
}

function timeText(moment: Date, format: string | undefined): string {
  const text = moment.toISOString();
  return format === 'date' ? text.slice(0, 10) : text;
}

interface SlugSource extends SlugMaker {
  /** The slug made from the fields' source text, without its number. */
  base(fields: ItemFields): string;
}

function slugMaker(from: string, schema: unknown): SlugSource {
  const flat = normalise(schema);
  const maxLength = typeof flat.maxLength === 'number' ? flat.maxLength : Infinity;
  const fits = slugCheck(flat);
  const base = (fields: ItemFields) => {
    const text = fields[from];
    return numbered(slugify(typeof text === 'string' || typeof text === 'number' ? String(text) : ''), 1, maxLength);
  };
  return {
    base,
    async *candidates(fields, allocate) {
      const start = base(fields);
      for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
        const candidate = numbered(start, attempt <= NUMBERED_CANDIDATES ? attempt : await allocate(), maxLength);
        if (fits(candidate)) yield candidate;
      }
    },
  };
}

/** The first candidate `free` accepts; the last one tried when none is (a duplicate slug beats no answer). */
async function firstFree(candidates: AsyncGenerator<string>, free: (candidate: string) => Promise<boolean>): Promise<string> {
  let last = EMPTY_SLUG;
  for await (const candidate of candidates) {
    if (await free(candidate)) return candidate;
    last = candidate;
  }
  return last;
}
