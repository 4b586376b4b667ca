import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadDocument, type Operation } from '../../src/core/openapi/load-document.js';
import { isJsonObject, jsonEquals, parseJsonExact, toJsonText, type JsonValue } from './json-value.js';
import { prismValidationErrors } from './prism-validation.js';
import { securityOf } from '../../src/core/openapi/security.js';
import { DEFAULT_TOKEN, INT64, invalidCaseFamilies, invalidCases, jsonRequestBody, validCases, type RequestCase } from './request-cases.js';
import { describeSchema, type JsonSchema } from './schema-arbitrary.js';

let createPlant: Operation;
let schema: JsonSchema;

beforeAll(async () => {
  const document = await loadDocument();
  const operation = document.operations.find((o) => o.iid === 'createPlant');
  if (operation === undefined) throw new Error('createPlant missing');
  createPlant = operation;
  schema = (jsonRequestBody(operation) as { schema: JsonSchema }).schema;
});

const int64Keys = new WeakMap<JsonSchema, string[]>();

/** An int64 property (top level, as in these documents) whose exact value lies outside int64. */
function int64Overflow(value: JsonValue, bodySchema: JsonSchema): boolean {
  if (!isJsonObject(value)) return false;
  let keys = int64Keys.get(bodySchema);
  if (keys === undefined) {
    keys = [...describeSchema(bodySchema).properties].filter(([, p]) => describeSchema(p).integerFormat === 'int64').map(([k]) => k);
    int64Keys.set(bodySchema, keys);
  }
  return keys.some((key) => {
    const v = value[key];
    return typeof v === 'bigint' && (v < INT64.min || v > INT64.max);
  });
}

function isJsonText(text: string | undefined): text is string {
  if (text === undefined) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Is the case's body valid for `bodySchema`, judged exactly (int64 as bigint, the rest by prism)? */
function bodyIsValid(c: RequestCase, bodySchema: JsonSchema): boolean {
  if (!isJsonText(c.body)) return false;
  const exact = parseJsonExact(c.body);
  if (int64Overflow(exact, bodySchema)) return false;
  return prismValidationErrors(JSON.parse(c.body), bodySchema).length === 0;
}

/** The checks every invalid case must pass: it breaks what it says, and nothing else. */
function assertTrulyInvalid(c: RequestCase, bodySchema: JsonSchema, token = DEFAULT_TOKEN): void {
  expect(c.kind).toBe('invalid');
  expect(c.breaks).toBeTruthy();
  expect(c.breaks?.startsWith(`${c.target}: `)).toBe(true);
  if (c.payload !== undefined) expect(c.body).toBe(toJsonText(c.payload));
  if (c.target === 'body') {
    expect(c.headers['content-type']).toBe('application/json');
    expect(c.headers['authorization']).toBe(`Bearer ${token}`);
    expect(bodyIsValid(c, bodySchema), `${c.breaks}: ${c.body?.slice(0, 200)}`).toBe(false);
    if (!isJsonText(c.body)) {
      expect(c.breaks).toMatch(/^body: (malformed JSON|empty)/);
      expect(() => parseJsonExact(c.body ?? '')).toThrow();
    } else if (/int64/.test(c.breaks ?? '')) {
      expect(int64Overflow(parseJsonExact(c.body), bodySchema)).toBe(true);
    }
  } else {
    // A content-type or auth case carries a valid body: only the header is wrong.
    expect(bodyIsValid(c, bodySchema)).toBe(true);
    if (c.target === 'content-type') {
      expect(c.headers['content-type']).not.toBe('application/json');
      expect(c.headers['authorization']).toBe(`Bearer ${token}`);
    } else {
      expect(c.headers['content-type']).toBe('application/json');
      expect(c.headers['authorization']).not.toBe(`Bearer ${token}`);
    }
  }
}

describe('valid cases of the bundled document', () => {
  it('pass prism-http validation, int64 ids checked exactly, with bearer auth and JSON content type', () => {
    fc.assert(
      fc.property(validCases(createPlant, {}), (c) => {
        expect(c.kind).toBe('valid');
        expect(c.breaks).toBeUndefined();
        expect(c.method).toBe('POST');
        expect(c.path).toBe('/plants');
        // The header name's case and a charset parameter vary, as HTTP and the media type allow.
        const type = c.headers['content-type'] ?? c.headers['Content-Type'];
        expect(type).toMatch(/^application\/json(; charset=utf-8)?$/);
        expect(c.headers.authorization).toBe(`Bearer ${DEFAULT_TOKEN}`);
        expect(Object.keys(c.headers)).toHaveLength(2);
        expect(c.payload).toBeDefined();
        expect(c.body).toBe(toJsonText(c.payload as JsonValue));
        const exact = parseJsonExact(c.body as string);
        expect(jsonEquals(exact, c.payload as JsonValue)).toBe(true);
        expect(int64Overflow(exact, schema)).toBe(false);
        expect(prismValidationErrors(JSON.parse(c.body as string), schema)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('carry the edge values on the wire, digit for digit', () => {
    const bodies = fc.sample(validCases(createPlant, {}), { numRuns: 2000, seed: 11 }).map((c) => c.body as string);
    for (const id of ['9007199254740993', '-9223372036854775808', '9223372036854775807']) {
      expect(
        bodies.some((b) => b.includes(`"id":${id}`)),
        id,
      ).toBe(true);
    }
    expect(bodies.some((b) => b.includes('"name":""'))).toBe(true);
    expect(bodies.some((b) => b.includes('\\u0000'))).toBe(true);
  });

  it('use the given token', () => {
    const [c] = fc.sample(validCases(createPlant, { token: 's3cret' }), 1);
    expect(c?.headers['authorization']).toBe('Bearer s3cret');
  });
});

describe('invalid cases of the bundled document', () => {
  it('has the families the contract needs', () => {
    const labels = invalidCaseFamilies(createPlant, {}).map((f) => f.breaks);
    expect(labels).toEqual(
      expect.arrayContaining([
        "body: missing required property 'name'",
        "body: missing required property 'id'",
        "body: property 'id' has the wrong type (string instead of integer)",
        "body: property 'name' has the wrong type (number instead of string)",
        "body: property 'name' is null",
        "body: property 'tag' is null",
        "body: property 'id' is not an integer",
        "body: property 'id' is above the int64 maximum",
        "body: property 'id' is below the int64 minimum",
        'body: not an object (array)',
        'body: not an object (string)',
        'body: not an object (number)',
        'body: not an object (boolean)',
        'body: not an object (null)',
        'body: malformed JSON (truncated)',
        'body: malformed JSON (trailing comma)',
        'body: malformed JSON (single quotes)',
        'body: malformed JSON (bare word)',
        'body: malformed JSON (unterminated string)',
        'body: empty',
        'content-type: text/plain',
        'content-type: application/xml',
        'content-type: application/x-www-form-urlencoded',
        'auth: no Authorization header',
        'auth: Basic scheme instead of Bearer',
        "auth: empty bearer token ('Bearer ')",
        "auth: scheme without a token ('Bearer')",
      ]),
    );
    // No wrong type for a JSON type the schema allows, nothing for a bogus token unless tokens are validated.
    expect(labels.some((l) => l.includes("'id' has the wrong type (number"))).toBe(false);
    expect(labels).not.toContain('auth: unknown bearer token');
    expect(invalidCaseFamilies(createPlant, { tokensValidated: true }).map((f) => f.breaks)).toContain('auth: unknown bearer token');
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('every family yields cases that are truly invalid (prism rejects, or not JSON, or int64 out of range exactly)', () => {
    for (const f of invalidCaseFamilies(createPlant, { tokensValidated: true })) {
      fc.assert(
        fc.property(f.arbitrary, (c) => {
          expect(c.breaks?.startsWith(f.breaks)).toBe(true);
          expect(c.target).toBe(f.target);
          assertTrulyInvalid(c, schema);
        }),
        { numRuns: 50 },
      );
    }
  });

  it('invalidCases mixes all families, and each is reached', () => {
    const families = invalidCaseFamilies(createPlant, {});
    const seen = new Set<string>();
    fc.assert(
      fc.property(invalidCases(createPlant, {}), (c) => {
        assertTrulyInvalid(c, schema);
        seen.add(families.find((f) => c.breaks?.startsWith(f.breaks))?.breaks ?? `unknown: ${c.breaks}`);
      }),
      { numRuns: 1500, seed: 5 },
    );
    expect([...seen].sort()).toEqual(families.map((f) => f.breaks).sort());
  });

  it('writes out-of-range int64 ids exactly', () => {
    const family = invalidCaseFamilies(createPlant, {}).find((f) => f.breaks === "body: property 'id' is above the int64 maximum");
    const bodies = fc.sample((family as { arbitrary: fc.Arbitrary<RequestCase> }).arbitrary, { numRuns: 200, seed: 1 }).map((c) => c.body);
    expect(bodies.some((b) => b?.includes('"id":9223372036854775808'))).toBe(true);
  });
});

describe('other documents', () => {
  const documentWith = (operation: object, security: unknown[] = [{ bearerAuth: [] }]): object => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    security,
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, basicAuth: { type: 'http', scheme: 'basic' } } },
    paths: { '/plants/{plantId}': { parameters: [{ name: 'plantId', in: 'path', required: true, schema: { type: 'string' } }], put: operation } },
  });

  const strict = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'kind', 'height'],
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[A-Za-z]+$' },
      kind: { enum: ['fern', 'cactus'] },
      height: { type: 'integer', format: 'int32', minimum: 1, maximum: 500 },
      ratio: { type: 'number', minimum: 0, exclusiveMaximum: 1 },
      big: { type: 'integer', format: 'int64', maximum: 1000 },
      note: { type: ['string', 'null'] },
      anything: {},
    },
  };

  let operation: Operation;
  let strictSchema: JsonSchema;
  beforeAll(async () => {
    const document = await loadDocument(
      documentWith({
        requestBody: { required: true, content: { 'application/json': { schema: strict } } },
        responses: { '200': { description: 'ok' } },
      }),
    );
    operation = document.operations[0] as Operation;
    strictSchema = (jsonRequestBody(operation) as { schema: JsonSchema }).schema;
  });

  it('a stricter schema gives more families, all truly invalid, and valid cases that stay valid', () => {
    const families = invalidCaseFamilies(operation, {});
    const labels = families.map((f) => f.breaks);
    expect(labels).toEqual(
      expect.arrayContaining([
        "body: property 'name' is shorter than minLength 2",
        "body: property 'name' is longer than maxLength 8",
        "body: property 'name' does not match its pattern ^[A-Za-z]+$",
        "body: property 'kind' is not one of its enum values",
        "body: property 'kind' is null",
        "body: property 'height' is above its maximum 500",
        "body: property 'height' is below its minimum 1",
        "body: property 'height' is above the int32 maximum",
        "body: property 'big' is above its maximum 1000",
        "body: undeclared property 'unexpected' (additionalProperties: false)",
      ]),
    );
    // What the schema does not constrain is not "broken": no null or wrong type for `anything` or a null `note`.
    expect(labels.filter((l) => l.includes("'anything'"))).toEqual([]);
    expect(labels).not.toContain("body: property 'note' is null");
    expect(labels.some((l) => l.startsWith("body: property 'kind' has the wrong type"))).toBe(false);
    for (const f of families) {
      fc.assert(
        fc.property(f.arbitrary, (c) => void assertTrulyInvalid(c, strictSchema)),
        { numRuns: 40 },
      );
    }
    fc.assert(
      fc.property(validCases(operation, {}), (c) => {
        expect(bodyIsValid(c, strictSchema)).toBe(true);
        expect(c.method).toBe('PUT');
        expect(c.path).toMatch(/^\/plants\/[^/{}]+$/);
        expect(Object.keys(c.payload as object).every((k) => k in strict.properties)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("sends a required text/plain body of a string schema as a non-empty text (Ditto's connection command)", async () => {
    const op = {
      requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string', example: '<command>' } } } },
      responses: { '200': { description: 'ok' } },
    };
    const command = (await loadDocument(documentWith(op, []))).operations[0] as Operation;
    fc.assert(
      fc.property(validCases(command, {}), (c) => {
        expect(c.headers['content-type'] ?? c.headers['Content-Type']).toBe('text/plain');
        expect(typeof c.body).toBe('string');
        expect(c.body).not.toBe('');
        expect(c.body).toBe(c.payload);
      }),
      { numRuns: 100 },
    );
  });

  it('no auth families without a bearer requirement; no Basic case when Basic is an accepted alternative', async () => {
    const op = { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { '200': { description: 'ok' } } };
    const open = (await loadDocument(documentWith(op, []))).operations[0] as Operation;
    expect(securityOf(open).open).toBe(true);
    expect(invalidCaseFamilies(open, {}).filter((f) => f.target === 'auth')).toEqual([]);
    const [valid] = fc.sample(validCases(open, {}), 1);
    expect(valid?.headers['authorization']).toBeUndefined();
    const optional = (await loadDocument(documentWith(op, [{ bearerAuth: [] }, {}]))).operations[0] as Operation;
    expect(securityOf(optional).open).toBe(true);
    const either = (await loadDocument(documentWith(op, [{ bearerAuth: [] }, { basicAuth: [] }]))).operations[0] as Operation;
    expect(securityOf(either).open).toBe(false);
    const labels = invalidCaseFamilies(either, {}).map((f) => f.breaks);
    expect(labels).toContain('auth: no Authorization header');
    expect(labels).not.toContain('auth: Basic scheme instead of Bearer');
  });

  it("Box's JSON Patch body (an array with a stray `required`) draws its invalid cases: no family waits for an object that never comes", async () => {
    // Box's classification update: type array, required [items]. The property families mutate an
    // object payload and filtered out every other; a payload that is never an object spun for ever.
    const fixture = new URL('../../test/fixtures/documents/box-classification-patch.json', import.meta.url).pathname;
    const patch = (await loadDocument(fixture)).operations[0] as Operation;
    const labels = invalidCaseFamilies(patch, {}).map((f) => f.breaks);
    expect(labels.filter((l) => l.startsWith('body: missing required property'))).toEqual([]);
    const cases = fc.sample(invalidCases(patch, {}), { numRuns: 50, seed: 1 });
    expect(cases).toHaveLength(50);
  });

  it('an operation without a JSON body still gets valid cases and auth cases', async () => {
    const get = (await loadDocument(documentWith({ responses: { '200': { description: 'ok' } } }))).operations[0] as Operation;
    const [valid] = fc.sample(validCases(get, {}), 1);
    expect(valid?.body).toBeUndefined();
    expect(valid?.headers).toEqual({ authorization: `Bearer ${DEFAULT_TOKEN}` });
    expect(invalidCaseFamilies(get, {}).every((f) => f.target === 'auth')).toBe(true);
    fc.assert(
      fc.property(invalidCases(get, {}), (c) => void expect(c.headers['authorization']).not.toBe(`Bearer ${DEFAULT_TOKEN}`)),
      { numRuns: 50 },
    );
  });
});
