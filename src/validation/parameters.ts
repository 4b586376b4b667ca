/**
 * The check of an operation's path, query and header parameters, judged as prism-http's validateInput
 * judges them, compiled once per operation (compileParameterCheck: prism's deserializers, schema, Ajv
 * and wording, without its per-request plumbing), with exact int64: prism bounds int64 parameters to
 * ±(2^53 − 1) and reads their text with Number, so the schemas carry the true int64 bounds, and the
 * int64 parameters' texts are shown as doubles on the right side of them (int64ParameterView).
 * Cookies are not checked, as validateInput does not check them. What the handlers read is the
 * request as sent: nothing here rounds an id or coerces a value in place.
 */
import type { IHttpOperation, IHttpParam } from '@stoplight/types';
import { SEVERITY } from '../core/prism/severity.js';
import { failure, type Failure } from '../core/errors.js';
import { bundleOf, compileParameterCheck, compilePathParameters, type ParameterDiagnostics } from '../core/prism/adapter.js';
import { int64ParameterView, widenInt64Bounds } from '../core/prism/int64-bounds.js';
import { refusesEmptyValue, type EmptyValueFacts } from '../core/openapi/parameters.js';
import { templateParameters, templatePattern } from '../core/openapi/path-template.js';

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
  // A value prism would drop before validating (so `?uid=` read as absent: "must have required property 'uid'"), refused here as empty.
  const neverEmpty = (request.query ?? []).filter((parameter) => refusesEmptyValue(parameter as EmptyValueFacts));
  return (input) => {
    const shown = view(input);
    // In validateInput's order (headers, query, path), every location's diagnostics together.
    const diagnostics: ParameterDiagnostics[number][] = [];
    if (headers) diagnostics.push(...(headers(withoutBodyHeaders(shown.headers)) ?? []));
    const empty = neverEmpty.filter((parameter) => input.query[parameter.name] === '');
    for (const parameter of empty) diagnostics.push(emptyValue(parameter));
    // Given, though empty: never "missing" (refused above as empty, or allowed by allowEmptyValue).
    const absentOnlyBecauseEmpty = (message: string): boolean =>
      Object.keys(input.query).some((name) => input.query[name] === '' && message.includes(`required property '${name}'`));
    if (query) diagnostics.push(...(query(copied(shown.query)) ?? []).filter((diagnostic) => !absentOnlyBecauseEmpty(diagnostic.message)));
    const elsewhere = diagnostics.length;
    if (path && pathParameters) diagnostics.push(...(path(pathParameters(shown.path)) ?? []));
    if (diagnostics.length === 0) return undefined;
    return refuse(diagnostics, elsewhere === 0 ? 'invalidId' : 'schemaViolation');
  };
}

function emptyValue(parameter: IHttpParam): ParameterDiagnostics[number] {
  const schema = parameter.schema as { type?: unknown } | undefined;
  return {
    path: ['query', parameter.name],
    code: 'type',
    message:
      schema?.type === undefined || schema.type === 'string'
        ? `Request query parameter ${parameter.name} is empty (the document allows no empty value here: it has no allowEmptyValue)`
        : `Request query parameter ${parameter.name} is empty; it must be ${String(schema.type)} (the document allows no empty value here)`,
    severity: SEVERITY.error,
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
  // The path's segments holding an int64 parameter, whole ("/items/{id}") or beside literal text
  // ("/pulls/{index}.diff"): prism reads them from the path it is given, so each is shown viewed.
  const segments = operation.path.split('/').map((segment) => segmentView(segment, path));
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
            .map((segment, index) => segments[index]?.(segment) ?? segment)
            .join('/');
    return { path: shownPath, query: shownQuery, headers: shownHeaders };
  };
}

/** How a segment of the path template shows its int64 parameters' texts; undefined when it has none. */
function segmentView(template: string, int64: ReadonlySet<string>): ((segment: string) => string) | undefined {
  const names = templateParameters(template);
  if (!names.some((name) => int64.has(name))) return undefined;
  if (names.length === 1 && template === `{${names[0]}}`) return int64ParameterView;
  const pattern = templatePattern(template);
  const literals = template.split(/\{[^}]+\}/);
  return (segment) => {
    const values = pattern.exec(segment)?.slice(1);
    if (values === undefined) return segment;
    return literals
      .map((literal, i) => {
        const value = values[i];
        return value === undefined ? literal : literal + (int64.has(names[i] ?? '') ? int64ParameterView(value) : value);
      })
      .join('');
  };
}

/** prism judges a body from Content-Length; the body is checked apart, so its headers must not be seen here. */
function withoutBodyHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = headers;
  return rest;
}
