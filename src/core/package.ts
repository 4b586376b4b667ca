import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files of the plantstore package itself, found upward from this module so the same code works
 * from src/ (tests) and from dist/ (the installed CLI).
 */

/** The first `relativePath` that exists in this module's folder or above it, with `accept` agreeing. */
export function findUpward(relativePath: string, accept: (path: string) => boolean = () => true): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, relativePath);
    if (existsSync(candidate) && accept(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

let version: string | undefined;

/** plantstore's own version, from its package.json; "unknown" if the package was repackaged without it. Read once. */
export function plantstoreVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  let found: string | undefined;
  findUpward('package.json', (path) => {
    try {
      const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (typeof manifest !== 'object' || manifest === null || (manifest as { name?: unknown }).name !== 'plantstore') return false;
      const text = (manifest as { version?: unknown }).version;
      found = typeof text === 'string' ? text : undefined;
      return found !== undefined;
    } catch {
      // Not ours or unreadable: keep looking upward.
      return false;
    }
  });
  return found ?? 'unknown';
}
