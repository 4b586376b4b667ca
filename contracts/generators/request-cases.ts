/**
 * Labelled HTTP request cases for one operation: valid ones a conforming server must accept, and
 * invalid ones, each breaking exactly one thing (a body property, the JSON syntax, the content type
 * or the credentials) that a conforming server must refuse.
 */
import fc from 'fast-check';
import type { Operation } from '../../src/document/load-document.js';
import { isJsonObject, jsonEquals, jsonObject, toJsonText, withKey, withoutKey, type JsonObject, type JsonValue } from './json-value.js';
import { arbitraryFromSchema, describeSchema, INT32, INT64, type JsonSchema, type SchemaFacts, type SchemaType } from './schema-arbitrary.js';

export { INT64, INT32 } from './schema-arbitrary.js';

export interface RequestCase {
  readonly kind: 'valid' | 'invalid';
  /** What it breaks, e.g. "body: missing required property 'id'", "auth: no Authorization header"; absent for valid cases. */
  readonly breaks?: string;
  readonly target: 'body' | 'content-type' | 'auth';
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Exact bytes to send. */
  readonly body?: string;
  /** The value behind body when it is JSON (valid cases always, when the operation takes a JSON body). */
  readonly payload?: JsonValue;
}

export interface CaseContext {
  /** Bearer token for valid requests; DEFAULT_TOKEN when absent or empty. */
  readonly token?: string;
  /** The server refuses tokens it does not know: send a bogus one as an invalid case. */
  readonly tokensValidated?: boolean;
  /** Valid bodies sometimes carry undeclared properties where the schema allows them. Default true. */
  readonly extraProperties?: boolean;
}

/** A kind of invalid request; `breaks` is the family's label (a case's own label may add detail in parentheses). */
export interface CaseFamily {
  readonly breaks: string;
  readonly target: RequestCase['target'];
  readonly arbitrary: fc.Arbitrary<RequestCase>;
}

export const DEFAULT_TOKEN = 'plantstore-conformance-token';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The operation's JSON request body: its media type and schema (application/json preferred). */
export function jsonRequestBody(operation: Operation): { readonly mediaType: string; readonly schema: JsonSchema; readonly required: boolean } | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const content = contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => JSON_MEDIA_TYPE.test(c.mediaType));
  if (content === undefined) return undefined;
  // A JSON body without a schema accepts any JSON value.
  return { mediaType: content.mediaType, schema: content.schema ?? {}, required: operation.request?.body?.required === true };
}

/** True when every security alternative needs credentials and one of them is HTTP bearer. */
export function requiresBearer(operation: Operation): boolean {
  const alternatives = operation.security ?? [];
  if (alternatives.length === 0 || alternatives.some((alternative) => alternative.length === 0)) return false;
  return alternatives.some((alternative) => alternative.some(isBearer));
}

function isBearer(scheme: { readonly type: string; readonly scheme?: string }): boolean {
  return scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer';
}

function acceptsBasic(operation: Operation): boolean {
  return (operation.security ?? []).some((alternative) => alternative.some((s) => s.type === 'http' && s.scheme.toLowerCase() === 'basic'));
}

function offersBearer(operation: Operation): boolean {
  return (operation.security ?? []).some((alternative) => alternative.some(isBearer));
}

function tokenOf(context: CaseContext): string {
  return context.token !== undefined && context.token !== '' ? context.token : DEFAULT_TOKEN;
}

/** Everything a valid request needs; invalid cases start from it and change one thing. */
interface Base {
  readonly method: string;
  readonly path: fc.Arbitrary<string>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { readonly mediaType: string; readonly schema: JsonSchema; readonly payload: fc.Arbitrary<JsonValue> } | undefined;
}

function baseOf(operation: Operation, context: CaseContext): Base {
  const body = jsonRequestBody(operation);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = body.mediaType;
  if (offersBearer(operation)) headers['authorization'] = `Bearer ${tokenOf(context)}`;
  return {
    method: operation.method.toUpperCase(),
    path: pathArbitrary(operation),
    headers,
    body:
      body === undefined
        ? undefined
        : { mediaType: body.mediaType, schema: body.schema, payload: arbitraryFromSchema(body.schema, { extraProperties: context.extraProperties ?? true }) },
  };
}

/** The operation path with templated parameters filled from their schemas (percent-encoded, never empty or a dot segment). */
function pathArbitrary(operation: Operation): fc.Arbitrary<string> {
  const parts = operation.path.split(/(\{[^}]+\})/);
  if (parts.length === 1) return fc.constant(operation.path);
  const pieces = parts.map((part) => {
    const match = /^\{([^}]+)\}$/.exec(part);
    if (match === null) return fc.constant(part);
    const name = match[1] as string;
    const schema = operation.request?.path?.find((p) => p.name === name)?.schema;
    const raw: fc.Arbitrary<JsonValue> = schema !== undefined ? arbitraryFromSchema(schema, { extraProperties: false }) : fc.string({ minLength: 1, maxLength: 12 });
    return raw
      .filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean')
      .map((v) => encodeURIComponent(String(v)))
      .filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  });
  return fc.tuple(...pieces).map((segments) => segments.join(''));
}

/** Requests a conforming server must accept: a body from the schema, valid credentials and content type. */
export function validCases(operation: Operation, context: CaseContext = {}): fc.Arbitrary<RequestCase> {
  const base = baseOf(operation, context);
  if (base.body === undefined) {
    return base.path.map((path): RequestCase => ({ kind: 'valid', target: 'body', method: base.method, path, headers: base.headers }));
  }
  return fc.tuple(base.path, base.body.payload).map(
    ([path, payload]): RequestCase => ({ kind: 'valid', target: 'body', method: base.method, path, headers: base.headers, body: toJsonText(payload), payload }),
  );
}

/** Requests a conforming server must refuse, one family at a time, evenly across the kinds of breakage. */
export function invalidCases(operation: Operation, context: CaseContext = {}): fc.Arbitrary<RequestCase> {
  const groups = invalidCaseGroups(operation, context).filter((group) => group.length > 0);
  if (groups.length === 0) throw new Error(`${operation.method.toUpperCase()} ${operation.path}: nothing to break (no JSON body and no bearer auth)`);
  // Grouped first so that, say, the four auth families are not drowned by thirty body ones.
  return fc.oneof(...groups.map((group) => fc.oneof(...group.map((family) => family.arbitrary))));
}

/** Every family of invalid cases, for runners that want each one exercised. */
export function invalidCaseFamilies(operation: Operation, context: CaseContext = {}): readonly CaseFamily[] {
  return invalidCaseGroups(operation, context).flat();
}

function invalidCaseGroups(operation: Operation, context: CaseContext): CaseFamily[][] {
  const base = baseOf(operation, context);
  const groups: CaseFamily[][] = [];
  if (base.body !== undefined) {
    const facts = describeSchema(base.body.schema);
    groups.push(propertyFamilies(base, facts));
    groups.push(shapeFamilies(base, facts));
    groups.push(syntaxFamilies(base));
    groups.push(contentTypeFamilies(base, operation));
  }
  if (requiresBearer(operation)) groups.push(authFamilies(base, operation, context));
  return groups;
}

// --- building blocks ---------------------------------------------------------------------------

type Body = NonNullable<Base['body']>;

function family(breaks: string, target: RequestCase['target'], arbitrary: fc.Arbitrary<RequestCase>): CaseFamily {
  return { breaks, target, arbitrary };
}

/** A body family: `mutate` turns a valid payload into the invalid JSON value to send. */
function payloadFamily<T>(base: Base, body: Body, breaks: string, values: fc.Arbitrary<T>, mutate: (payload: JsonValue, value: T) => JsonValue | undefined): CaseFamily {
  const arbitrary = fc
    .tuple(base.path, body.payload, values)
    .map(([path, payload, value]) => ({ path, sent: mutate(payload, value) }))
    .filter((x): x is { path: string; sent: JsonValue } => x.sent !== undefined)
    .map(({ path, sent }): RequestCase => ({
      kind: 'invalid', breaks, target: 'body', method: base.method, path, headers: base.headers, body: toJsonText(sent), payload: sent,
    }));
  return family(breaks, 'body', arbitrary);
}

/** A body family whose bytes are not (or not only) a JSON value. */
function textFamily(base: Base, body: Body, breaks: string, text: fc.Arbitrary<string>): CaseFamily {
  void body;
  const arbitrary = fc.tuple(base.path, text).map(
    ([path, sent]): RequestCase => ({ kind: 'invalid', breaks, target: 'body', method: base.method, path, headers: base.headers, body: sent }),
  );
  return family(breaks, 'body', arbitrary);
}

function onObject(mutate: (object: JsonObject) => JsonValue): (payload: JsonValue) => JsonValue | undefined {
  return (payload) => (isJsonObject(payload) ? mutate(payload) : undefined);
}

// --- body: one property wrong ------------------------------------------------------------------

const WRONG_VALUES: Readonly<Record<'string' | 'number' | 'boolean' | 'array' | 'object', fc.Arbitrary<JsonValue>>> = {
  // "1" and "true" are what lenient servers coerce.
  string: fc.oneof(fc.constantFrom('1', '', 'true', 'null', '9007199254740993'), fc.string()),
  number: fc.oneof(fc.constantFrom(0, 1, -1, 1.5), fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => (v === 0 ? 0 : v))),
  boolean: fc.boolean(),
  array: fc.constantFrom<JsonValue[]>([], [1], ['a'], [null]),
  object: fc.constantFrom<JsonValue>(jsonObject([]), jsonObject([['value', 1]])),
};

function allows(types: ReadonlySet<SchemaType>, type: SchemaType): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function propertyFamilies(base: Base, facts: SchemaFacts): CaseFamily[] {
  const body = base.body as Body;
  const families: CaseFamily[] = [];
  for (const key of facts.required) {
    families.push(payloadFamily(base, body, `body: missing required property '${key}'`, fc.constant(null), onObject((o) => withoutKey(o, key))));
  }
  for (const [key, schema] of facts.properties) {
    const property = describeSchema(schema);
    const set = (breaks: string, values: fc.Arbitrary<JsonValue>): void => {
      families.push(payloadFamily(base, body, `body: property '${key}' ${breaks}`, values, (payload, value) => (isJsonObject(payload) ? withKey(payload, key, value) : undefined)));
    };
    const types = property.types;
    const enumValues = property.enumValues;
    const outsideEnum = (v: JsonValue): boolean => enumValues === undefined || !enumValues.some((e) => jsonEquals(e, v));
    if (types !== undefined) {
      for (const wrong of ['string', 'number', 'boolean', 'array', 'object'] as const) {
        if (allows(types, wrong) || (wrong === 'number' && types.has('integer'))) continue;
        set(`has the wrong type (${wrong} instead of ${[...types].join(' or ')})`, WRONG_VALUES[wrong]);
      }
    }
    if ((types !== undefined && !types.has('null')) || (types === undefined && enumValues !== undefined && outsideEnum(null))) {
      set('is null', fc.constant(null));
    }
    if (types !== undefined && types.has('integer') && !types.has('number')) {
      // A fresh integer part each time: a lenient target that stores 1.5 as 1 would refuse the next
      // 1.5 as a duplicate, and a stateful target would pass after the first run.
      set('is not an integer', fc.tuple(fc.integer({ min: 1, max: 2 ** 40 }), fc.constantFrom(0.5, 0.25, 0.75), fc.boolean()).map(([whole, part, negative]) => (negative ? -1 : 1) * (whole + part)));
    }
    if (types !== undefined && allows(types, 'integer')) families.push(...rangeFamilies(base, body, key, property));
    if (enumValues !== undefined) {
      const candidates = enumValues.every((v) => typeof v === 'number' || typeof v === 'bigint')
        ? fc.integer().map((v): JsonValue => v)
        : fc.oneof(fc.constantFrom('not-in-enum', '', 'UNKNOWN'), fc.string());
      set('is not one of its enum values', candidates.filter(outsideEnum));
    }
    if (property.minLength > 0 && (types === undefined || types.has('string'))) {
      set(`is shorter than minLength ${property.minLength}`, fc.string({ maxLength: property.minLength - 1 }));
    }
    if (property.maxLength !== undefined && (types === undefined || types.has('string'))) {
      const n = property.maxLength;
      set(`is longer than maxLength ${n}`, fc.string({ minLength: n + 1, maxLength: n + 16 }));
    }
    const [pattern] = property.patterns;
    if (pattern !== undefined && (types === undefined || types.has('string'))) {
      const misses = ['', ' ', '!', '\u0000', '0', 'Z Z', '🌱', 'a\nb', '-'].filter((s) => !pattern.test(s));
      if (misses.length > 0) set(`does not match its pattern ${pattern.source}`, fc.constantFrom(...misses));
    }
  }
  const undeclared = ['unexpected', 'extra', 'x-undeclared'].find((k) => !facts.properties.has(k) && facts.forbidsKey(k));
  if (undeclared !== undefined) {
    families.push(payloadFamily(base, body, `body: undeclared property '${undeclared}' (additionalProperties: false)`, fc.constantFrom<JsonValue>(true, 'surprise', 0), (payload, value) => (isJsonObject(payload) ? withKey(payload, undeclared, value) : undefined)));
  }
  return families;
}

/**
 * Just past int64, mostly fresh each time (steps of 4,096 above 2^63 are distinct doubles): a target
 * that rounds them would otherwise refuse every later one as a duplicate and pass on a second run.
 */
const INT64_ABOVE = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(INT64.max + 1n, 2n ** 64n, 10n ** 20n) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 40n }).map((k): JsonValue => INT64.max + k * 4096n) },
);
const INT64_BELOW = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<JsonValue>(INT64.min - 1n, -(2n ** 64n), -(10n ** 20n)) },
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 40n }).map((k): JsonValue => INT64.min - k * 4096n) },
);

/** Integers just past what the schema allows: the int64/int32 range, then the author's own bounds. Written exactly. */
function rangeFamilies(base: Base, body: Body, key: string, property: SchemaFacts): CaseFamily[] {
  const families: CaseFamily[] = [];
  const set = (breaks: string, values: readonly JsonValue[] | fc.Arbitrary<JsonValue>): void => {
    const arbitrary = Array.isArray(values) ? fc.constantFrom(...(values as readonly JsonValue[])) : (values as fc.Arbitrary<JsonValue>);
    families.push(payloadFamily(base, body, `body: property '${key}' ${breaks}`, arbitrary, (payload, value) => (isJsonObject(payload) ? withKey(payload, key, value) : undefined)));
  };
  const { min, max } = property.integerRange;
  if (property.integerFormat === 'int64') {
    set('is above the int64 maximum', INT64_ABOVE);
    set('is below the int64 minimum', INT64_BELOW);
  } else if (property.integerFormat === 'int32') {
    set('is above the int32 maximum', [INT32.max + 1, 2 ** 32, 2 ** 53 - 1]);
    set('is below the int32 minimum', [INT32.min - 1, -(2 ** 32), -(2 ** 53 - 1)]);
  }
  const formatRange = property.integerFormat === 'int64' ? INT64 : property.integerFormat === 'int32' ? { min: BigInt(INT32.min), max: BigInt(INT32.max) } : undefined;
  // Bigint for int64 (checked exactly); a JS number elsewhere, only where that number is exact.
  const asValue = (v: bigint): JsonValue | undefined =>
    property.integerFormat === 'int64' ? v : v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : undefined;
  if (max !== undefined && max !== formatRange?.max) {
    const values = [max + 1n, max + 2n, max + 1000n].map(asValue).filter((v): v is JsonValue => v !== undefined);
    if (values.length > 0) set(`is above its maximum ${max}`, values);
  }
  if (min !== undefined && min !== formatRange?.min) {
    const values = [min - 1n, min - 2n, min - 1000n].map(asValue).filter((v): v is JsonValue => v !== undefined);
    if (values.length > 0) set(`is below its minimum ${min}`, values);
  }
  return families;
}

// --- body: not the JSON value the schema wants -------------------------------------------------

function shapeFamilies(base: Base, facts: SchemaFacts): CaseFamily[] {
  const body = base.body as Body;
  const types = facts.types;
  if (types === undefined) return [];
  const objectOnly = types.size === 1 && types.has('object');
  const label = (what: string): string => (objectOnly ? `body: not an object (${what})` : `body: a JSON ${what}, which the schema does not allow`);
  const families: CaseFamily[] = [];
  const add = (type: SchemaType, what: string, values: fc.Arbitrary<JsonValue>): void => {
    if (!allows(types, type)) families.push(payloadFamily(base, body, label(what), values, (_payload, value) => value));
  };
  add('array', 'array', fc.oneof(fc.constant<JsonValue>([]), body.payload.map((p): JsonValue => [p])));
  add('string', 'string', fc.constantFrom<JsonValue>('plant', '', '{}'));
  if (!allows(types, 'number')) add('integer', 'number', fc.constantFrom<JsonValue>(0, 1, -1, 1.5, 9007199254740993n));
  add('boolean', 'boolean', fc.constantFrom<JsonValue>(true, false));
  add('null', 'null', fc.constant(null));
  if (!types.has('object')) add('object', 'object', fc.constant(jsonObject([])));
  return families;
}

// --- body: not JSON at all ---------------------------------------------------------------------

function syntaxFamilies(base: Base): CaseFamily[] {
  const body = base.body as Body;
  // Texts built from a valid payload when it is an object (so they look like the real thing), fixed otherwise.
  const fromObject = (breaks: string, build: (text: string, object: JsonObject, n: number) => string, fallback: string): CaseFamily =>
    textFamily(
      base,
      body,
      breaks,
      fc.tuple(body.payload, fc.nat()).map(([payload, n]) => (isJsonObject(payload) ? build(toJsonText(payload), payload, n) : fallback)),
    );
  return [
    // Every proper prefix of an object's text is unfinished JSON.
    fromObject('body: malformed JSON (truncated)', (text, _o, n) => text.slice(0, 1 + (n % (text.length - 1))), '{"name": "tr'),
    fromObject('body: malformed JSON (trailing comma)', (text) => `${text.slice(0, -1)},}`, '{"name":"x",}'),
    fromObject(
      'body: malformed JSON (single quotes)',
      (_text, object) => {
        const keys = Object.keys(object);
        if (keys.length === 0) return "{'name':'x'}";
        return `{${keys.map((k) => `'${k.replace(/['\\]/g, '')}':${toJsonText(object[k] as JsonValue).replace(/^"(.*)"$/s, "'$1'")}`).join(',')}}`;
      },
      "{'name':'x'}",
    ),
    textFamily(base, body, 'body: malformed JSON (bare word)', fc.constantFrom('plant', 'undefined', 'NaN', 'Infinity', 'True', 'nul', '{name: "x"}')),
    textFamily(base, body, 'body: malformed JSON (unterminated string)', fc.stringMatching(/^[a-z0-9 ]{0,12}$/).map((s) => `{"name":"${s}`)),
    fromObject('body: malformed JSON (text after the value)', (text) => `${text}}`, '{"name":"x"}}'),
    textFamily(base, body, 'body: empty', fc.constant('')),
  ];
}

// --- content type ------------------------------------------------------------------------------

function contentTypeFamilies(base: Base, operation: Operation): CaseFamily[] {
  const body = base.body as Body;
  const declared = (operation.request?.body?.contents ?? []).map((c) => c.mediaType.toLowerCase());
  const covers = (type: string): boolean =>
    declared.some((d) => d === type || d === '*/*' || (d.endsWith('/*') && type.startsWith(d.slice(0, -1))));
  return ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']
    .filter((type) => !covers(type))
    .map((type) => {
      const breaks = `content-type: ${type}`;
      const arbitrary = fc.tuple(base.path, body.payload).map(
        ([path, payload]): RequestCase => ({
          kind: 'invalid', breaks, target: 'content-type', method: base.method, path,
          headers: { ...base.headers, 'content-type': type }, body: toJsonText(payload), payload,
        }),
      );
      return family(breaks, 'content-type', arbitrary);
    });
}

// --- credentials -------------------------------------------------------------------------------

function authFamilies(base: Base, operation: Operation, context: CaseContext): CaseFamily[] {
  const token = tokenOf(context);
  const withAuth = (breaks: string, authorization: fc.Arbitrary<string | undefined>): CaseFamily => {
    const payload: fc.Arbitrary<JsonValue | undefined> = base.body?.payload ?? fc.constant(undefined);
    const arbitrary = fc.tuple(base.path, payload, authorization).map(([path, value, auth]): RequestCase => {
      const headers: Record<string, string> = { ...base.headers };
      delete headers['authorization'];
      if (auth !== undefined) headers['authorization'] = auth;
      return value === undefined
        ? { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers }
        : { kind: 'invalid', breaks, target: 'auth', method: base.method, path, headers, body: toJsonText(value), payload: value };
    });
    return family(breaks, 'auth', arbitrary);
  };
  const families = [
    withAuth('auth: no Authorization header', fc.constant(undefined)),
    withAuth("auth: empty bearer token ('Bearer ')", fc.constant('Bearer ')),
    withAuth("auth: scheme without a token ('Bearer')", fc.constant('Bearer')),
  ];
  if (!acceptsBasic(operation)) families.splice(1, 0, withAuth('auth: Basic scheme instead of Bearer', fc.constant('Basic dXNlcjpwYXNz')));
  if (context.tokensValidated === true) {
    const bogus = fc.oneof(fc.constantFrom('bogus-token', `${token}x`, token.slice(0, -1) || 'x'), fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,40}$/)).filter((t) => t !== token);
    families.push(withAuth('auth: unknown bearer token', bogus.map((t) => `Bearer ${t}`)));
  }
  return families;
}
