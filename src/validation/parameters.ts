/**
 * The check of an operation's path, query, header and cookie parameters, by prism-http's
 * validateInput, with exact int64: prism bounds int64 parameters to ±(2^53 − 1) and reads their
 * text with Number, so the operation it is given carries the true int64 bounds, and the int64
 * parameters' texts are shown to it as doubles on the right side of them (int64ParameterView).
 * What the handlers read is the request as sent: nothing here rounds an id.
 */
import type { HttpMethod, IHttpOperation, IHttpParam } from '@stoplight/types';
import { failure, type Failure } from '../core/errors.js';
import { validateInput } from '../core/prism/adapter.js';
import { int64ParameterView, widenInt64Bounds } from '../core/prism/int64-bounds.js';

/** The request as the parameter check reads it. */
export interface ParameterInput {
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: Readonly<Record<string, string>>;
}

export type ParameterValidator = (input: ParameterInput) => Failure | undefined;

/** Words a refusal from prism's diagnostics (the request validator's, so parameters and bodies read alike). */
type Refuse = (diagnostics: ReadonlyArray<{ readonly message: string }>) => Failure;

export function compileParameterValidator(operation: IHttpOperation, refuse: Refuse): ParameterValidator {
  const request = operation.request;
  const declaresParameters = [request?.path, request?.query, request?.headers, request?.cookie].some((list) => (list?.length ?? 0) > 0);
  if (!request || !declaresParameters) return () => undefined;
  const { body: _checkedApart, ...parameters } = request;
  const widened = {
    ...parameters,
    ...(parameters.path ? { path: parameters.path.map(widen) } : {}),
    ...(parameters.query ? { query: parameters.query.map(widen) } : {}),
    ...(parameters.headers ? { headers: parameters.headers.map(widen) } : {}),
    ...(parameters.cookie ? { cookie: parameters.cookie.map(widen) } : {}),
  };
  const withoutBody: IHttpOperation = { ...operation, request: widened };
  const view = compileInt64View(operation);
  return (input) => {
    const shown = view(input);
    const result = validateInput({
      resource: withoutBody,
      element: { method: operation.method as HttpMethod, url: { path: shown.path, query: { ...shown.query } }, headers: withoutBodyHeaders(shown.headers) },
    });
    return result._tag === 'Left' ? refuse(result.left) : undefined;
  };
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
