/**
 * Slugs: lower-case ASCII words joined by hyphens, made from an item's text ("Crème brûlée, part 2!"
 * → "creme-brulee-part-2"), and the candidates tried in turn until one is free
 * ("how-to-train-your-dragon", then "…-2", "…-3"). Pure; the handler checks the store.
 */
import { compilePattern, type PatternTest } from '../regexp/pattern.js';
import type { Schema } from '../schema/normalise.js';

/** What a text with no letter or digit (empty, emoji, a script without ASCII letters) becomes. */
export const EMPTY_SLUG = 'untitled';

/** Numbered candidates tried before the collection's allocation sequence numbers the slug (bounded work per create). */
export const NUMBERED_CANDIDATES = 10;

export function slugify(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.length > 0 ? words : EMPTY_SLUG;
}

/** The slug with its number (none for 1), the base cut so the whole fits `maxLength`. */
export function numbered(base: string, number: bigint | number, maxLength = Infinity): string {
  const suffix = String(number) === '1' ? '' : `-${number}`;
  const room = Math.max(maxLength - suffix.length, 1);
  const cut = base.length > room ? base.slice(0, room).replace(/-+$/, '') : base;
  return `${cut.length > 0 ? cut : base.slice(0, 1)}${suffix}`;
}

/** Checks a made slug against the property's own string keywords: a slug the schema refuses is not made. */
export function slugCheck(schema: Schema): (slug: string) => boolean {
  const pattern = typeof schema.pattern === 'string' ? compile(schema.pattern) : undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return (slug) => slug.length >= min && slug.length <= max && (pattern === undefined || pattern.test(slug));
}

/** Whether slugs can meet the schema at all: two typical ones must pass (the plan falls back otherwise). */
export function admitsSlugs(schema: Schema): boolean {
  const check = slugCheck(schema);
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return max >= 8 && check(numbered('how-to-train-your-dragon', 1, max)) && check(numbered('how-to-train-your-dragon', 12, max));
}

/** Tested as Ajv tests it, in linear time: a slug is made from a client's text, of any length. */
function compile(pattern: string): PatternTest | undefined {
  try {
    return compilePattern(pattern);
  } catch {
    return undefined;
  }
}
