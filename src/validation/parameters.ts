/**
 * The check of an operation's path, query and header parameters, judged as prism-http's validateInput
 * judges them, compiled once per operation (compileParameterCheck: prism's deserializers, schema, Ajv
 * and wording, without its per-request plumbing), with exact int64: prism bounds int64 parameters to
 * ±(2^53 − 1) and reads their text with Number, so the schemas carry the true int64 bounds, and the
 * int64 parameters' texts are shown as doubles on the right side of them (int64ParameterView).
 * Cookies are not checked, as validateInput does not check them. What the handlers read is the
 * request as sent: nothing here rounds an id or coerces a value in place.
 */
import { DiagnosticSeverity, type IHttpOperation, type IHttpParam } from '@stoplight/types';
import { failure, type Failure } from '../core/errors.js';
import { bundleOf, compileParameterCheck, compilePathParameters, type ParameterDiagnostics } from '../core/prism/adapter.js';
import { int64ParameterView, widenInt64Bounds } from '../core/prism/int64-bounds.js';

/** The request as the parameter check reads it. */
export interface ParameterInput {
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: Readonly<Record<string, string>>;
}

export type ParameterValidator = (input: ParameterInput) => Failure | undefined;

/**
 * Words a refusal from prism's diagnostics (the request validator's, so parameters and bodies read
 * alike), as a schema violation or, when only path parameters are wrong, as a path that names no
 * item (invalidId: a declared 404 answers it where 400 is not declared).
 */
type Refuse = (diagnostics: ReadonlyArray<{ readonly message: string }>, entry: 'schemaViolation' | 'invalidId') => Failure;

export function compileParameterValidator(operation: IHttpOperation, refuse: Refuse): ParameterValidator {
  const request = operation.request;
  const declaresParameters = [request?.path, request?.query, request?.headers].some((list) => (list?.length ?? 0) > 0);
  if (!request || !declaresParameters) return () => undefined;
  const bundle = bundleOf(operation);
  const headers = request.headers?.length ? compileParameterCheck(request.headers.map(widen), 'header', bundle) : undefined;
  const query = request.query?.length ? compileParameterCheck(request.query.map(widen), 'query', bundle) : undefined;
  const path = request.path?.length ? compileParameterCheck(request.path.map(widen), 'path', bundle) : undefined;
  const pathParameters = path ? compilePathParameters(operation.path) : undefined;
  const view = compileInt64View(operation);
  const neverEmpty = (request.query ?? []).filter(refusesEmptyValue);
  return (input) => {
    const shown = view(input);
    // In validateInput's order (headers, query, path), every location's diagnostics together.
    const diagnostics: ParameterDiagnostics[number][] = [];
    if (headers) diagnostics.push(...(headers(withoutBodyHeaders(shown.headers)) ?? []));
    for (const parameter of neverEmpty) if (input.query[parameter.name] === '') diagnostics.push(emptyValue(parameter));
    if (query) diagnostics.push(...(query(copied(shown.query)) ?? []));
    const elsewhere = diagnostics.length;
    if (path && pathParameters) diagnostics.push(...(path(pathParameters(shown.path)) ?? []));
    if (diagnostics.length === 0) return undefined;
    return refuse(diagnostics, elsewhere === 0 ? 'invalidId' : 'schemaViolation');
  };
}

/**
 * A query parameter given with an empty value (`?limit=`) where its schema is a number, integer or
 * boolean: OpenAPI allows no empty value unless `allowEmptyValue` says so, but prism drops every empty
 * value before validating, so `?limit=` passed as if absent (and verify rightly called that accepting
 * an invalid request). A string parameter's empty value is left to its schema, as before.
 */
function refusesEmptyValue(parameter: IHttpParam): boolean {
  const schema = parameter.schema as { type?: unknown } | undefined;
  const types = Array.isArray(schema?.type) ? (schema.type as unknown[]) : [schema?.type];
  return (
    (parameter as { allowEmptyValue?: boolean }).allowEmptyValue !== true &&
    types.every((type) => type === 'integer' || type === 'number' || type === 'boolean')
  );
}

function emptyValue(parameter: IHttpParam): ParameterDiagnostics[number] {
  const schema = parameter.schema as { type?: unknown } | undefined;
  return {
    path: ['query', parameter.name],
    code: 'type',
    message: `Request query parameter ${parameter.name} is empty; it must be ${String(schema?.type)} (the document allows no empty value here)`,
    severity: DiagnosticSeverity.Error,
  };
}

/** The query with its repeated parameters' arrays copied: Ajv coerces array items in place. */
function copied(query: Readonly<Record<string, string | string[]>>): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const name of Object.keys(query)) {
    const value = query[name]!;
    copy[name] = Array.isArray(value) ? [...value] : value;
  }
  return copy;
}

function widen<P extends IHttpParam>(parameter: P): P {
  return parameter.schema ? { ...parameter, schema: widenInt64Bounds(parameter.schema) } : parameter;
}

/** int64, or an array of int64 (a repeated query parameter). */
function isInt64(schema: IHttpParam['schema']): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (schema.format === 'int64') return true;
  const items = schema.items;
  return typeof items === 'object' && items !== null && !Array.isArray(items) && items.format === 'int64';
}

const names = (list: readonly IHttpParam[] | undefined) => (list ?? []).filter((parameter) => isInt64(parameter.schema)).map((parameter) => parameter.name);

/** The request with its int64 parameters' texts as prism should read them; the same request when it has none. */
function compileInt64View(operation: IHttpOperation): (input: ParameterInput) => ParameterInput {
  const path = new Set(names(operation.request?.path));
  const query = names(operation.request?.query);
  const headers = names(operation.request?.headers).map((name) => name.toLowerCase());
  if (path.size === 0 && query.length === 0 && headers.length === 0) return (input) => input;
  // The path's segments that are a whole int64 parameter ("/items/{id}"): prism reads them from the path it is given.
  const segments = operation.path.split('/').map((segment) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    return name !== undefined && path.has(name);
  });
  return (input) => {
    const shownQuery = { ...input.query };
    for (const name of query) {
      const value = shownQuery[name];
      if (value !== undefined) shownQuery[name] = Array.isArray(value) ? value.map(int64ParameterView) : int64ParameterView(value);
    }
    const shownHeaders = { ...input.headers };
    for (const name of headers) {
      const value = shownHeaders[name];
      if (value !== undefined) shownHeaders[name] = int64ParameterView(value);
    }
    const shownPath =
      path.size === 0
        ? input.path
        : input.path
            .split('/')
            .map((segment, index) => (segments[index] === true ? int64ParameterView(segment) : segment))
            .join('/');
    return { path: shownPath, query: shownQuery, headers: shownHeaders };
  };
}

/** prism judges a body from Content-Length; the body is checked apart, so its headers must not be seen here. */
function withoutBodyHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = headers;
  return rest;
}
