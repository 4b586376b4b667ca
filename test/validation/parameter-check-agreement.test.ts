import type { IHttpOperation, IHttpParam } from '@stoplight/types';
import { failure } from '../../src/core/errors.js';
import { describe, expect, it } from 'vitest';
import { compileParameterCheck, compilePathParameters, validateInput } from '../../src/core/prism/adapter.js';
import { int64ParameterView, widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import { compileParameterValidator } from '../../src/validation/parameters.js';

/**
 * The server compiles each operation's parameter checks once instead of calling prism's
 * validateInput per request. For a table of requests (valid, invalid, int64 edges, missing required,
 * arrays in several styles, deprecated), both must give the same diagnostics, word for word.
 */
const int64 = { type: 'integer', format: 'int64' } as const;
const parameters = {
  path: [{ id: 'p-id', name: 'id', required: true, style: 'simple', schema: widenInt64Bounds({ ...int64 }) }],
  query: [
    { id: 'q-limit', name: 'limit', style: 'form', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 } },
    { id: 'q-kind', name: 'kind', style: 'form', required: true, schema: { type: 'string', enum: ['fern', 'cactus'] } },
    { id: 'q-ids', name: 'ids', style: 'form', explode: true, schema: { type: 'array', items: widenInt64Bounds({ ...int64 }) } },
    { id: 'q-tags', name: 'tags', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 } },
    { id: 'q-pipes', name: 'pipes', style: 'pipeDelimited', schema: { type: 'array', items: { type: 'integer' } } },
    { id: 'q-filter', name: 'filter', style: 'deepObject', explode: true, schema: { type: 'object', properties: { size: { type: 'integer' } } } },
    { id: 'q-flag', name: 'Flag', style: 'form', schema: { type: 'boolean' } },
    { id: 'q-old', name: 'old', style: 'form', deprecated: true, schema: { type: 'string' } },
  ],
  headers: [
    { id: 'h-trace', name: 'X-Trace', required: true, style: 'simple', schema: { type: 'string', pattern: '^[a-f0-9]+$' } },
    { id: 'h-count', name: 'x-count', style: 'simple', schema: widenInt64Bounds({ ...int64, minimum: 0 }) },
  ],
} as unknown as { path: IHttpParam[]; query: IHttpParam[]; headers: IHttpParam[] };

const operation = {
  id: 'op',
  method: 'get',
  path: '/items/{id}',
  responses: [{ id: 'r', code: '200' }],
  request: parameters,
} as unknown as IHttpOperation;

interface Case {
  readonly path: string;
  readonly query: Record<string, string | string[]>;
  readonly headers: Record<string, string>;
}
const ok: Case = { path: '/items/1', query: { kind: 'fern' }, headers: { 'x-trace': 'ab12' } };
const cases: Record<string, Case> = {
  valid: ok,
  'valid, every parameter': {
    path: '/items/-5',
    query: { kind: 'cactus', limit: '100', ids: ['1', '2'], tags: 'a,bc', pipes: '1|2', 'filter[size]': '3', flag: 'true' },
    headers: { 'x-trace': 'ff', 'x-count': '0' },
  },
  'int64 path at 2^63 − 1': { ...ok, path: '/items/9223372036854775807' },
  'int64 path at 2^63': { ...ok, path: '/items/9223372036854775808' },
  'int64 path at −2^63': { ...ok, path: '/items/-9223372036854775808' },
  'int64 path below −2^63': { ...ok, path: '/items/-9223372036854775809' },
  'int64 path beyond 2^53': { ...ok, path: '/items/9007199254740993' },
  'path not a number': { ...ok, path: '/items/abc' },
  'path a fraction': { ...ok, path: '/items/1.5' },
  'path encoded space': { ...ok, path: '/items/1%202' },
  'missing required query': { ...ok, query: {} },
  'missing required header': { ...ok, headers: {} },
  'every location wrong': { path: '/items/x', query: { limit: '0' }, headers: { 'x-trace': 'XYZ', 'x-count': '-1' } },
  'limit above int32 bound': { ...ok, query: { kind: 'fern', limit: '101' } },
  'limit empty (dropped as prism drops it)': { ...ok, query: { kind: 'fern', limit: '' } },
  'limit text': { ...ok, query: { kind: 'fern', limit: 'ten' } },
  'enum miss': { ...ok, query: { kind: 'rose' } },
  'kind repeated': { ...ok, query: { kind: ['fern', 'cactus'] } },
  'int64 array with a bad item': { ...ok, query: { kind: 'fern', ids: ['1', 'x', '9223372036854775808'] } },
  'int64 array single value': { ...ok, query: { kind: 'fern', ids: '9223372036854775807' } },
  'comma array too long': { ...ok, query: { kind: 'fern', tags: 'a,b,c' } },
  'comma array item too long': { ...ok, query: { kind: 'fern', tags: 'abcd' } },
  'pipe array bad item': { ...ok, query: { kind: 'fern', pipes: '1|x' } },
  'deepObject bad property': { ...ok, query: { kind: 'fern', 'filter[size]': 'big' } },
  'boolean wrong': { ...ok, query: { kind: 'fern', flag: 'maybe' } },
  '"__proto__" sent as a name': { ...ok, query: { kind: 'fern', ['__proto__']: ['1', '2'], limit: '3' } },
  'deprecated present': { ...ok, query: { kind: 'fern', old: 'x' } },
  'header pattern miss': { ...ok, headers: { 'x-trace': 'XYZ' } },
  'header int64 edge': { ...ok, headers: { 'x-trace': 'a', 'x-count': '9223372036854775807' } },
  'header int64 beyond': { ...ok, headers: { 'x-trace': 'a', 'x-count': '9223372036854775808' } },
};

/** The texts as both sides are shown them: int64 parameters as doubles on the right side of their bounds. */
function shown(request: Case): Case {
  const ids = request.query['ids'];
  return {
    path: request.path.replace(/[^/]+$/, (segment) => int64ParameterView(segment)),
    query: { ...request.query, ...(ids === undefined ? {} : { ids: Array.isArray(ids) ? ids.map(int64ParameterView) : int64ParameterView(ids) }) },
    headers: { ...request.headers, ...(request.headers['x-count'] === undefined ? {} : { 'x-count': int64ParameterView(request.headers['x-count']) }) },
  };
}

function prismMessages(request: Case): string[] {
  const result = validateInput({
    resource: operation,
    element: { method: 'get', url: { path: request.path, query: { ...request.query } }, headers: request.headers },
  });
  return result._tag === 'Left' ? result.left.map((diagnostic) => diagnostic.message) : [];
}

const checks = {
  header: compileParameterCheck(parameters.headers, 'header', undefined),
  query: compileParameterCheck(parameters.query, 'query', undefined),
  path: compileParameterCheck(parameters.path, 'path', undefined),
};
const pathParameters = compilePathParameters(operation.path);

function compiledMessages(request: Case): string[] {
  const query = Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, Array.isArray(value) ? [...value] : value]));
  return [...(checks.header(request.headers) ?? []), ...(checks.query(query) ?? []), ...(checks.path(pathParameters(request.path)) ?? [])].map(
    (diagnostic) => diagnostic.message,
  );
}

describe('compiled parameter checks agree with prism-http validateInput', () => {
  it.each(Object.entries(cases))('%s', (_name, request) => {
    const view = shown(request);
    const expected = prismMessages(view);
    expect(compiledMessages(view)).toEqual(expected);
  });

  it('refuses what the table means to refuse (the table is not all accepted)', () => {
    const refused = Object.entries(cases).filter(([, request]) => prismMessages(shown(request)).length > 0);
    expect(refused.length).toBeGreaterThan(15);
    expect(prismMessages(shown(ok))).toEqual([]);
  });

  it("the server's validator reads as before: validateInput's words, int64 exact, the request not coerced in place", () => {
    const validate = compileParameterValidator(operation, (diagnostics) =>
      failure('schemaViolation', diagnostics.map((diagnostic) => diagnostic.message).join('; ')),
    );
    // Where the server parts from prism on purpose: an empty value for a number, integer or boolean query
    // parameter is refused (OpenAPI's allowEmptyValue is false), where prism drops it as if absent.
    const scalar = new Map(
      parameters.query.flatMap((parameter) => {
        const type = (parameter.schema as { type?: string }).type;
        return type === 'integer' || type === 'number' || type === 'boolean' ? [[parameter.name, type] as const] : [];
      }),
    );
    const empties = (request: Case) =>
      Object.entries(request.query)
        .filter(([name, value]) => value === '' && scalar.has(name))
        .map(([name]) => `Request query parameter ${name} is empty; it must be ${scalar.get(name)} (the document allows no empty value here)`);
    expect(empties(cases['limit empty (dropped as prism drops it)'] as Case)).toHaveLength(1);
    for (const request of Object.values(cases)) {
      const before = JSON.stringify(request);
      const expected = [...empties(request), ...prismMessages(shown(request))];
      const result = validate(request);
      expect(result?.message ?? '', JSON.stringify(request)).toBe(expected.join('; '));
      expect(result === undefined).toBe(expected.length === 0);
      expect(JSON.stringify(request)).toBe(before);
    }
  });
});
