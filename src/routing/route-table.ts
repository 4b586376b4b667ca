import type { IHttpOperation } from '@stoplight/types';

export type RouteMatch =
  | { readonly kind: 'operation'; readonly operation: IHttpOperation; readonly pathParameters: Readonly<Record<string, string>> }
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
  readonly allow: readonly string[];
}

/**
 * Compiles the operations' paths once: concrete paths by exact lookup, templated ones
 * (/plants/{id}) by pattern, concrete first as prism-http's router prefers them.
 * Unlike prism's router it can tell a wrong method (405, with the Allow list) from a wrong path.
 */
export function compileRouteTable(operations: readonly IHttpOperation[]): RouteTable {
  const byTemplate = new Map<string, Map<string, IHttpOperation>>();
  for (const operation of operations) {
    const methods = byTemplate.get(operation.path) ?? new Map<string, IHttpOperation>();
    methods.set(operation.method.toUpperCase(), operation);
    byTemplate.set(operation.path, methods);
  }
  const concrete = new Map<string, PathRoute>();
  const templated: PathRoute[] = [];
  for (const [template, byMethod] of byTemplate) {
    const parameterNames = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
    const allow = [...byMethod.keys()].sort();
    if (parameterNames.length === 0) {
      concrete.set(template, { template, parameterNames, byMethod, allow });
    } else {
      const source = template
        .split(/\{[^}]+\}/)
        .map(escapeRegExp)
        .join('([^/]+)');
      templated.push({ template, pattern: new RegExp(`^${source}$`), parameterNames, byMethod, allow });
    }
  }
  // More literal characters first, so /plants/mine wins over /plants/{id} when both are templated.
  templated.sort((a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length);

  function find(path: string): { route: PathRoute; values: readonly string[] } | undefined {
    const exact = concrete.get(path);
    if (exact) return { route: exact, values: [] };
    for (const route of templated) {
      const match = route.pattern?.exec(path);
      if (match) return { route, values: match.slice(1) };
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
      return { kind: 'operation', operation, pathParameters };
    },
    methodsOf(path) {
      return find(path)?.route.allow;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
