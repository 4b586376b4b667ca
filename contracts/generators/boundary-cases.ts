/**
 * Boundary cases: the values that break implementations, each sent on every run rather than left
 * to chance. Random generation leans on them too, but a run of 60 can miss the empty name; these
 * cannot. Derived from the schema: a minimal valid payload, then each property in turn set to each
 * edge value its schema allows.
 */
import fc from 'fast-check';
import { narrow } from '../../src/core/json/int64.js';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { jsonObject, toJsonText, type JsonValue } from './json-value.js';
import { prismValidationErrors } from './prism-validation.js';
import { jsonRequestBody, type CaseContext, type RequestCase } from './request-cases.js';
import { headersWith, pathWith, validCredentials } from './request-cases/credentials.js';
import { parameterHeaders, validQuery, withQuery } from './request-cases/parameters.js';
import {
  arbitraryFromSchema,
  describeSchema,
  EDGE_STRINGS,
  INT32,
  INT64,
  withoutPrismInt64Bounds,
  type JsonSchema,
  type SchemaFacts,
} from './schema-arbitrary.js';

const LONG_STRING = 'x'.repeat(10_000);
const TWO_53 = 2n ** 53n;

/** Every boundary case of the operation's JSON body, in a fixed order. */
export function boundaryCases(operation: Operation, context: CaseContext = {}): RequestCase[] {
  const body = jsonRequestBody(operation);
  if (body === undefined || operation.path.includes('{')) return [];
  const schema = withoutPrismInt64Bounds(body.schema);
  const facts = describeSchema(schema);
  if (facts.properties.size === 0) return [];
  const minimal = new Map<string, JsonValue>(
    facts.required.flatMap((key) => {
      const property = facts.properties.get(key);
      return property === undefined ? [] : [[key, simplest(property)] as const];
    }),
  );
  const credentials = validCredentials(operation, context);
  // What every valid request carries besides its body: the required header parameters (Ditto's
  // cloudevents ce-* headers) and a valid query, drawn once from a fixed seed.
  const headers = headersWith({ ...parameterHeaders(operation), 'content-type': body.mediaType }, credentials);
  const [query = ''] = fc.sample(validQuery(operation), { seed: 1, numRuns: 1 });
  const path = pathWith(withQuery(operation.path, query), credentials);

  const payloads: JsonValue[] = [jsonObject(minimal)];
  for (const [key, property] of facts.properties) {
    for (const value of edgeValues(describeSchema(property))) {
      payloads.push(jsonObject(new Map(minimal).set(key, value)));
    }
  }
  return payloads
    .filter((payload) => isValid(payload, schema, facts))
    .map((payload): RequestCase => ({
      kind: 'valid',
      target: 'body',
      method: operation.method.toUpperCase(),
      path,
      headers,
      body: toJsonText(payload),
      payload,
    }));
}

/** The first value fast-check draws from a fixed seed: deterministic, and simple for strings and integers. */
function simplest(schema: JsonSchema): JsonValue {
  const [value] = fc.sample(arbitraryFromSchema(schema, { extraProperties: false }), { seed: 1, numRuns: 1 });
  return value ?? null;
}

function edgeValues(facts: SchemaFacts): JsonValue[] {
  const values: JsonValue[] = [...(facts.enumValues ?? [])];
  const allows = (type: string) => facts.types === undefined || facts.types.has(type as never);
  if (allows('string')) values.push(...EDGE_STRINGS, LONG_STRING);
  if (allows('integer') || allows('number')) values.push(...integerEdges(facts));
  if (allows('number')) values.push(1.5, -1.5, 1e308, 5e-324);
  if (allows('boolean')) values.push(true, false);
  if (allows('null')) values.push(null);
  return values;
}

function integerEdges(facts: SchemaFacts): JsonValue[] {
  const range = facts.integerFormat === 'int32' ? [BigInt(INT32.min), BigInt(INT32.max)] : [INT64.min, INT64.max];
  const edges = [0n, -1n, 1n, TWO_53 - 1n, TWO_53, TWO_53 + 1n, -(TWO_53 + 1n), 2n ** 31n - 1n, 2n ** 31n, ...range];
  if (facts.integerRange.min !== undefined) edges.push(facts.integerRange.min);
  if (facts.integerRange.max !== undefined) edges.push(facts.integerRange.max);
  // int64 values travel as bigint (exact); others as numbers.
  return [...new Set(edges)].map((edge) => (facts.integerFormat === 'int64' ? edge : narrow(edge)));
}

/** Valid by prism's validator (on what JSON.parse makes of it), with integers checked exactly against their ranges. */
function isValid(payload: JsonValue, schema: JsonSchema, facts: SchemaFacts): boolean {
  if (prismValidationErrors(JSON.parse(toJsonText(payload)), schema).length > 0) return false;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return true;
  return Object.entries(payload).every(([key, value]) => {
    if (typeof value !== 'bigint' && typeof value !== 'number') return true;
    const property = facts.properties.get(key);
    if (property === undefined || !Number.isInteger(Number(value))) return true;
    const { min, max } = describeSchema(property).integerRange;
    const exact = BigInt(value);
    return (min === undefined || exact >= min) && (max === undefined || exact <= max);
  });
}
