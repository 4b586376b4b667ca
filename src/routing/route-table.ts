import type { IHttpOperation } from '@stoplight/types';
import { templateParameters, templatePattern } from '../core/openapi/path-template.js';

export type RouteMatch =
  | {
      readonly kind: 'operation';
      readonly operation: IHttpOperation;
      readonly pathParameters: Readonly<Record<string, string>>;
      /** The path as the document's paths read it: the request's path without the base path it came under. */
      readonly path: string;
      /** The other operations of this method on the route, after `operation` (Box's "#" alternatives): a request valid for one of them is theirs. */
      readonly alternatives?: readonly IHttpOperation[];
    }
  | { readonly kind: 'no-path' }
  /** The path exists; `allow` lists its methods (for 405 and CORS preflight). */
  | { readonly kind: 'no-method'; readonly allow: readonly string[] };

export interface RouteTable {
  match(method: string, path: string): RouteMatch;
  /** The methods a path has, or undefined for an unknown path. */
  methodsOf(path: string): readonly string[] | undefined;
}

interface PathRoute {
  readonly template: string;
  /** undefined for a concrete path, which is looked up in a Map instead. */
  readonly pattern?: RegExp;
  readonly parameterNames: readonly string[];
  readonly byMethod: ReadonlyMap<string, IHttpOperation>;
  /** Per method, the operations after the first on this route (requestPath's alternatives). */
  readonly alternatives: ReadonlyMap<string, readonly IHttpOperation[]>;
  readonly allow: readonly string[];
}

/**
 * Compiles the operations' paths once: concrete paths by exact lookup, templated ones
 * (/plants/{id}) by pattern, concrete first as prism-http's router prefers them.
 * Unlike prism's router it can tell a wrong method (405, with the Allow list) from a wrong path.
 */
export function compileRouteTable(operations: readonly IHttpOperation[], basePaths: readonly string[] = []): RouteTable {
  const byTemplate = new Map<string, Map<string, IHttpOperation>>();
  const alternativesOf = new Map<string, Map<string, IHttpOperation[]>>();
  for (const operation of operations) {
    const methods = byTemplate.get(operation.path) ?? new Map<string, IHttpOperation>();
    const method = operation.method.toUpperCase();
    // The first of several on one route (Box's "#" alternatives, core/openapi/operation.ts requestPath) answers it, unless another takes the request.
    if (methods.has(method)) {
      const others = alternativesOf.get(operation.path) ?? new Map<string, IHttpOperation[]>();
      others.set(method, [...(others.get(method) ?? []), operation]);
      alternativesOf.set(operation.path, others);
    } else methods.set(method, operation);
    byTemplate.set(operation.path, methods);
  }
  const concrete = new Map<string, PathRoute>();
  const templated: PathRoute[] = [];
  for (const [template, byMethod] of byTemplate) {
    const parameterNames = templateParameters(template);
    const allow = [...byMethod.keys()].sort();
    const alternatives = alternativesOf.get(template) ?? new Map<string, IHttpOperation[]>();
    if (parameterNames.length === 0) {
      concrete.set(template, { template, parameterNames, byMethod, allow, alternatives });
    } else {
      templated.push({ template, pattern: templatePattern(template), parameterNames, byMethod, allow, alternatives });
    }
  }
  // More literal characters first, so /plants/mine wins over /plants/{id} when both are templated.
  templated.sort((a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length);

  /** The route of a path as given, else under one of the base paths (the document's own paths win where they collide). */
  function find(path: string): { route: PathRoute; values: readonly string[]; path: string } | undefined {
    const found = findAt(path);
    if (found !== undefined || basePaths.length === 0) return found;
    for (const base of basePaths) {
      if (path === base || path.startsWith(`${base}/`)) {
        const rest = path.length === base.length ? '/' : path.slice(base.length);
        const under = findAt(rest);
        if (under !== undefined) return under;
      }
    }
    return undefined;
  }

  function findAt(path: string): { route: PathRoute; values: readonly string[]; path: string } | undefined {
    const exact = concrete.get(path);
    if (exact) return { route: exact, values: [], path };
    // A concrete path holding characters a client must percent-encode (DigitalOcean's literal /<upload_url>, sent as /%3Cupload_url%3E).
    const decoded = path.includes('%') ? decodedPath(path) : path;
    const spelt = decoded === path ? undefined : concrete.get(decoded);
    if (spelt) return { route: spelt, values: [], path: decoded };
    for (const route of templated) {
      const match = route.pattern?.exec(path);
      if (match) return { route, values: match.slice(1), path };
    }
    return undefined;
  }

  return {
    match(method, path) {
      const found = find(path);
      if (!found) return { kind: 'no-path' };
      const operation = found.route.byMethod.get(method.toUpperCase());
      if (!operation) return { kind: 'no-method', allow: found.route.allow };
      const pathParameters: Record<string, string> = {};
      found.route.parameterNames.forEach((name, index) => {
        pathParameters[name] = safeDecode(found.values[index] ?? '');
      });
      const alternatives = found.route.alternatives.get(method.toUpperCase());
      return { kind: 'operation', operation, pathParameters, path: found.path, ...(alternatives === undefined ? {} : { alternatives }) };
    },
    methodsOf(path) {
      return find(path)?.route.allow;
    },
  };
}

/** Each segment decoded on its own: an encoded "/" stays inside its segment's text, matching no path of the document. */
function decodedPath(path: string): string {
  return path.split('/').map(safeDecode).join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
