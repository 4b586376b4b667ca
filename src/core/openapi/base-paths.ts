/**
 * The paths a document's `servers` put in front of its paths (`https://petstore3.swagger.io/api/v3`
 * → `/api/v3`): serve answers under each as well as at `/`, so a client configured with the
 * document's own server URL (host swapped for the stand-in's) reaches the same operations.
 */
import type { Operation } from './operation.js';

/** Every distinct base path of the operations' servers, longest first; `/` (no base path) is left out. */
export function basePathsOf(operations: readonly Operation[]): string[] {
  const paths = new Set<string>();
  for (const operation of operations) {
    for (const server of operation.servers ?? []) {
      const path = basePathOf(server.url, server.variables);
      if (path !== undefined) paths.add(path);
    }
  }
  return [...paths].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

type Variables = Readonly<Record<string, { readonly default?: unknown } | undefined>> | undefined;

/**
 * A server URL's path, with its variables at their defaults, without a trailing slash: an absolute
 * URL's path counts, a relative one (`/v1`, `v1`) is a path already. Undefined when it is `/`, or
 * when a variable without a default leaves it unknown.
 */
export function basePathOf(url: string, variables?: Variables): string | undefined {
  let unknown = false;
  const filled = url.replace(/\{([^{}]+)\}/g, (_whole, name: string) => {
    const value = variables?.[name]?.default;
    if (typeof value !== 'string' && typeof value !== 'number') {
      unknown = true;
      return '';
    }
    return String(value);
  });
  if (unknown) return undefined;
  let path: string;
  try {
    // A relative URL (`/v1`, `v1`, `.`) is resolved against a root, as a path.
    path = new URL(filled, 'http://server.invalid/').pathname;
  } catch {
    return undefined; // not a URL prism would serve either: no base path rather than a wrong one
  }
  path = path.replace(/\/+$/, '');
  return path === '' ? undefined : path;
}
