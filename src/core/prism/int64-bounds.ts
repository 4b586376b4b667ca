/**
 * prism-http's int64 fix, undone once. prism (through @stoplight/http-spec) gives every int64 schema
 * the bounds ±(2^53 − 1), so it would refuse ids a JS number cannot hold. It records what the author
 * wrote in x-stoplight.explicitProperties: a bound not listed there is prism's. The server replaces
 * those bounds with the true int64 ones (and validates a view of the value in which bigints are
 * doubles on the right side of them); the suite's generators and reference validator drop them.
 */
import type { JsonValue } from '../json/exact-json.js';
import { INT64_MAX, INT64_MIN } from '../json/int64.js';
import { authorKeywords, saidByAuthor } from '../schema/author-keywords.js';

/** 2^63 as a double: the first value above int64 (2^63 − 1 itself has no double). */
const TWO_POW_63 = 2 ** 63;
/** The largest double below 2^63 and the first below −2^63. */
const BELOW_TWO_POW_63 = TWO_POW_63 - 1024;
const BELOW_MINUS_TWO_POW_63 = -TWO_POW_63 - 2048;

/**
 * The value as the schema validator sees it: every bigint becomes a double on the same side of
 * the int64 bounds as the exact value. A plain Number(2n ** 63n - 1n) would round up to 2^63 and
 * fail an int64 check it passes; this keeps every int64 verdict exact while the validator
 * (Ajv, through prism-http) keeps working on numbers.
 */
export function validationView(value: JsonValue): unknown {
  if (typeof value === 'bigint') return int64SafeDouble(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(validationView);
  const view: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = validationView(value[key] as JsonValue);
    // defineProperty, not assignment, for "__proto__": it must stay an own property (assignment, the rest: cheaper on every int64 create).
    if (key === '__proto__') Object.defineProperty(view, key, { value: child, enumerable: true, writable: true, configurable: true });
    else view[key] = child;
  }
  return view;
}

/** An integer literal in a parameter: prism reads it with Number, so only its view can keep the int64 verdict. */
const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * A parameter's text as prism's validator should read it: an integer literal becomes the digits of
 * a double on the same side of the int64 bounds (2^63 − 1 would otherwise round up to 2^63 and be
 * refused); anything else, and every integer a double holds exactly, stays as sent.
 */
export function int64ParameterView(text: string): string {
  if (text.length < 16 || !INTEGER_TEXT.test(text)) return text;
  return String(int64SafeDouble(BigInt(text)));
}

function int64SafeDouble(value: bigint): number {
  const double = Number(value);
  if (value > INT64_MAX) return Math.max(double, TWO_POW_63);
  if (value < INT64_MIN) return Math.min(double, BELOW_MINUS_TWO_POW_63);
  return double >= TWO_POW_63 ? BELOW_TWO_POW_63 : double;
}

type Schema = Record<string, unknown>;

/** What to do with the bounds of an int64 schema; `explicit` is undefined when prism recorded nothing. */
type Fix = (copy: Schema, explicit: ReadonlySet<string> | undefined) => void;

/** The server's fix: prism's bounds become the true int64 bounds, so the validator checks the range. */
const WIDEN: Fix = (copy, recorded) => {
  const explicit = recorded ?? new Set<string>();
  if (!explicit.has('minimum') && !explicit.has('exclusiveMinimum')) copy.minimum = -TWO_POW_63;
  if (!explicit.has('maximum') && !explicit.has('exclusiveMaximum')) {
    // 2^63 − 1 is not a double; "below 2^63" says the same for the view above.
    delete copy.maximum;
    copy.exclusiveMaximum = TWO_POW_63;
  }
};

/**
 * The suite's fix: prism's bounds are dropped (its values are JS numbers by then; it compares int64
 * values as bigint itself). Only when prism recorded the author's words: a plain schema is left alone.
 */
const DROP: Fix = (copy, explicit) => {
  if (explicit === undefined) return;
  if (!explicit.has('minimum')) delete copy.minimum;
  if (!explicit.has('maximum')) delete copy.maximum;
};

/**
 * A copy of `schema` whose int64 schemas carry the true int64 bounds where the author wrote none.
 * The operation prism built is left as it is.
 */
export function widenInt64Bounds<T>(schema: T): T {
  return fixCopy(schema, WIDEN, new WeakMap()) as T;
}

/** A copy of `schema` without the int64 bounds prism invented. Cycles stay cycles; nothing is shared with the input. */
export function withoutPrismInt64Bounds<T>(schema: T): T {
  return fixCopy(schema, DROP, new WeakMap()) as T;
}

function fixCopy(node: unknown, fix: Fix, seen: WeakMap<object, unknown>): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const done = seen.get(node);
  if (done !== undefined) return done;
  if (Array.isArray(node)) {
    const copy: unknown[] = [];
    seen.set(node, copy);
    for (const item of node) copy.push(fixCopy(item, fix, seen));
    return copy;
  }
  const copy: Schema = {};
  seen.set(node, copy);
  // Read before the branches are copied: a copied typeless branch has lost its `nullable`.
  const nullBranch = nullableBranch(node as Schema);
  for (const [key, child] of Object.entries(node)) {
    // defineProperty, not assignment: a "__proto__" property name must stay an own property.
    Object.defineProperty(copy, key, { value: fixCopy(child, fix, seen), enumerable: true, writable: true, configurable: true });
  }
  if (copy.format === 'int64') fix(copy, authorKeywords(copy));
  if (copy.nullable !== undefined && copy.type === undefined) nullableWithoutType(copy);
  // The schema's own `nullable: false` is the last word, as the normaliser reads it.
  else if (nullBranch && copy.nullable !== false) admitNull(copy);
  return copy;
}

/** Kept beside the alternatives: prism's writeOnly filter and readers of annotations look for them at the top. */
const ANNOTATIONS = ['title', 'description', 'readOnly', 'writeOnly', 'deprecated', 'example', 'default'];

/**
 * OpenAPI 3.0's `nullable` with no `type` beside it, which Ajv refuses to compile. Beside `$ref`,
 * `allOf`, `oneOf` or `anyOf` (Box's `shared_link: {allOf: [SharedLink], nullable: true}`, "null if
 * no shared link has been created") it admits null too, as core/schema/normalise.ts reads it for
 * every other reader: the schema becomes `anyOf: [itself, {type: "null"}]`, changed in place so a
 * cycle through it stays one. Alone it adds nothing to a schema that takes any value.
 */
function nullableWithoutType(copy: Schema): void {
  const nullable = copy.nullable === true;
  delete copy.nullable;
  if (!nullable || !['$ref', 'allOf', 'oneOf', 'anyOf'].some((keyword) => Object.hasOwn(copy, keyword))) return;
  admitNull(copy);
}

/**
 * Whether an `allOf` branch of its own says the schema may be null (Box's WebLink: `shared_link:
 * {allOf: [SharedLink, {description}, {nullable: true}]}`): a typeless branch whose `nullable` is
 * the last such word, as core/schema/normalise.ts merges the branches and reads it for every other
 * reader. Alone in its branch it would add nothing, and null would fail the other branches.
 */
function nullableBranch(node: Schema): boolean {
  const { allOf } = node;
  if (!Array.isArray(allOf)) return false;
  let said: unknown;
  for (const branch of allOf as unknown[]) {
    if (typeof branch === 'object' && branch !== null && (branch as Schema).type === undefined && Object.hasOwn(branch, 'nullable')) {
      said = (branch as Schema).nullable;
    }
  }
  return said === true;
}

/** The schema becomes `anyOf: [itself, {type: "null"}]`, changed in place so a cycle through it stays one. */
function admitNull(copy: Schema): void {
  delete copy.nullable;
  const itself: Schema = {};
  for (const key of Object.keys(copy)) {
    Object.defineProperty(itself, key, { value: copy[key], enumerable: true, writable: true, configurable: true });
    if (!ANNOTATIONS.includes(key)) delete copy[key];
  }
  copy.anyOf = [itself, { type: 'null' }];
}

/** True when prism-http, not the author, wrote this bound of an int64 schema. */
export function isPrismBound(schema: { readonly format?: unknown; readonly 'x-stoplight'?: unknown }, keyword: 'minimum' | 'maximum'): boolean {
  return schema.format === 'int64' && !saidByAuthor(schema, keyword);
}

/** Ajv says "must be < 9223372036854775808" for the widened bound; say it in int64's own words. */
export function int64Message(message: string): string {
  return message.replace(`must be < ${TWO_POW_63}`, `must be <= ${INT64_MAX} (int64)`).replace(`must be >= ${-TWO_POW_63}`, `must be >= ${INT64_MIN} (int64)`);
}
