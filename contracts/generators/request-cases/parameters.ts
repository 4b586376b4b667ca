/**
 * Parameters: the query string a valid request carries (required parameters always, optional ones
 * sometimes, each value drawn from its schema and written exactly, int64 digit for digit), the
 * header and cookie parameters it sends, and the invalid families that break one parameter.
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { refusesEmptyValue } from '../../../src/core/openapi/parameters.js';
import { isCursorParameter } from '../../../src/core/resources/list-parameters.js';
import type { JsonValue } from '../json-value.js';
import { arbitraryFromSchema, describeSchema, INT32, INT64, type JsonSchema, type SchemaFacts } from '../schema-arbitrary.js';
import { family, type Base } from './base.js';
import type { CaseFamily, RequestCase } from './types.js';

interface Parameter {
  readonly name: string;
  readonly required?: boolean;
  readonly schema?: unknown;
  readonly explode?: boolean;
  readonly allowEmptyValue?: boolean;
}

/** A URL stays well within common server limits (8 KiB for the request line and headers). */
const MAX_VALUE_CHARS = 200;

/** A parameter value as the URL or a header writes it: scalars as text (bigint exact), arrays one per name (form, explode). */
function texts(value: JsonValue): string[] | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) {
    const items = value.map(texts);
    return items.every((t) => t !== undefined) ? (items as string[][]).flat() : undefined;
  }
  return undefined;
}

function valuesOf(parameter: Parameter): fc.Arbitrary<string[] | undefined> {
  const schema = (parameter.schema ?? { type: 'string' }) as JsonSchema;
  return arbitraryFromSchema(schema, { extraProperties: false, maxDepth: 2 })
    .map(texts)
    .filter((t) => t === undefined || t.every((s) => s.length <= MAX_VALUE_CHARS));
}

/** The query string of a valid request ("" or "limit=3&tags=a&tags=b"), without the "?". */
export function validQuery(operation: Operation): fc.Arbitrary<string> {
  // An optional cursor is left out: only the server can give one (the one reading of a list's paging).
  const parameters = ((operation.request?.query ?? []) as readonly Parameter[]).filter(
    (parameter) => parameter.required === true || !isCursorParameter(parameter.name, parameter.schema),
  );
  if (parameters.length === 0) return fc.constant('');
  const pieces = parameters.map((parameter) => {
    const noEmpty = refusesEmptyValue(parameter);
    // Never `?uid=` as valid where the shared rule refuses it (serve does).
    const values = valuesOf(parameter).filter((t) => (t === undefined ? parameter.required !== true : !(noEmpty && t.some((s) => s === ''))));
    const pairs = values.map((list) => (list ?? []).map((v) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(v)}`));
    return parameter.required === true ? pairs : fc.option(pairs, { nil: [] as string[], freq: 3 });
  });
  return fc.tuple(...pieces).map((lists) => lists.flat().join('&'));
}

export function withQuery(path: string, query: string): string {
  return query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** Header and cookie parameters a valid request sends: the required ones, each with its schema's simplest value. */
export function parameterHeaders(operation: Operation): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const parameter of (operation.request?.headers ?? []) as readonly Parameter[]) {
    if (parameter.required !== true) continue;
    const value = simplest(parameter);
    if (value !== undefined) headers[parameter.name.toLowerCase()] = value;
  }
  const cookies = ((operation.request?.cookie ?? []) as readonly Parameter[])
    .filter((p) => p.required === true)
    .flatMap((p) => {
      const value = simplest(p);
      return value === undefined ? [] : [`${p.name}=${encodeURIComponent(value)}`];
    });
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');
  return headers;
}

function simplest(parameter: Parameter): string | undefined {
  const [value] = fc.sample(valuesOf(parameter), { seed: 1, numRuns: 1 });
  return value?.[0];
}

/** Texts a parameter of this schema must refuse, with what each breaks. */
function wrongTexts(facts: SchemaFacts): Array<{ breaks: string; values: readonly string[] }> {
  const types = facts.types;
  const wrong: Array<{ breaks: string; values: readonly string[] }> = [];
  if (types === undefined) return wrong;
  if (types.has('integer') && !types.has('number') && !types.has('string')) {
    wrong.push({ breaks: 'is not an integer', values: ['abc', '1.5', '', '1e3x', 'true'] });
    if (facts.integerFormat === 'int64')
      wrong.push({ breaks: 'is beyond int64', values: [String(INT64.max + 1n), String(INT64.min - 1n), '18446744073709551616'] });
    if (facts.integerFormat === 'int32') wrong.push({ breaks: 'is beyond int32', values: [String(INT32.max + 1), String(INT32.min - 1), '9007199254740993'] });
    const { min, max } = facts.integerRange;
    const bounds = facts.integerFormat === 'int32' ? { min: BigInt(INT32.min), max: BigInt(INT32.max) } : INT64;
    if (max !== undefined && max !== bounds.max) wrong.push({ breaks: `is above its maximum ${max}`, values: [String(max + 1n)] });
    if (min !== undefined && min !== bounds.min) wrong.push({ breaks: `is below its minimum ${min}`, values: [String(min - 1n)] });
  } else if (types.has('number') && !types.has('string')) {
    wrong.push({ breaks: 'is not a number', values: ['abc', 'NaN', ''] });
  } else if (types.has('boolean') && !types.has('string')) {
    wrong.push({ breaks: 'is not a boolean', values: ['yes', '2'] });
  }
  if (facts.enumValues !== undefined && facts.enumValues.every((v) => typeof v === 'string')) {
    wrong.push({ breaks: 'is not one of its enum values', values: ['not-in-enum'] });
  }
  return wrong;
}

/** Invalid families: one path or query parameter of the wrong type or range, or a required query parameter left out. */
export function parameterFamilies(base: Base, operation: Operation): CaseFamily[] {
  const families: CaseFamily[] = [];
  const payload: fc.Arbitrary<JsonValue | undefined> = base.body?.payload ?? fc.constant(undefined);
  const caseOf = (breaks: string, path: string, value: JsonValue | undefined): RequestCase => {
    const request = {
      kind: 'invalid' as const,
      breaks,
      target: 'parameter' as const,
      method: base.method,
      path: base.credentialed(path),
      headers: base.headers,
    };
    return value === undefined || base.body === undefined ? request : { ...request, body: base.body.encode(value), payload: value };
  };
  for (const parameter of (operation.request?.path ?? []) as readonly Parameter[]) {
    if (parameter.schema === undefined) continue;
    for (const { breaks, values } of wrongTexts(describeSchema(parameter.schema as JsonSchema))) {
      const label = `path: parameter '${parameter.name}' ${breaks}`;
      // An empty segment changes the path itself ("/plants/"): another route, not a wrong value.
      const sendable = values.filter((v) => v !== '');
      if (sendable.length === 0) continue;
      const arbitrary = fc
        .constantFrom(...sendable)
        .chain((value) => fc.tuple(base.filled({ [parameter.name]: encodeURIComponent(value) }), base.query, payload))
        .map(([path, query, body]) => caseOf(label, withQuery(path, query), body));
      families.push(family(label, 'parameter', arbitrary));
    }
  }
  const query = (operation.request?.query ?? []) as readonly Parameter[];
  for (const parameter of query) {
    const others = query.filter((q) => q.name !== parameter.name && q.required === true);
    const rest = fc.tuple(...others.map((o) => valuesOf(o).map((t) => (t ?? []).map((v) => `${encodeURIComponent(o.name)}=${encodeURIComponent(v)}`))));
    if (parameter.required === true) {
      const label = `query: missing required parameter '${parameter.name}'`;
      const arbitrary = fc.tuple(base.filled({}), rest, payload).map(([path, pairs, body]) => caseOf(label, withQuery(path, pairs.flat().join('&')), body));
      families.push(family(label, 'parameter', arbitrary));
    }
    if (parameter.schema === undefined) continue;
    for (const { breaks, values } of wrongTexts(describeSchema(parameter.schema as JsonSchema))) {
      const label = `query: parameter '${parameter.name}' ${breaks}`;
      const arbitrary = fc.tuple(base.filled({}), rest, fc.constantFrom(...values), payload).map(([path, pairs, value, body]) => {
        const text = [...pairs.flat(), `${encodeURIComponent(parameter.name)}=${encodeURIComponent(value)}`].join('&');
        return caseOf(label, withQuery(path, text), body);
      });
      families.push(family(label, 'parameter', arbitrary));
    }
  }
  return families;
}
