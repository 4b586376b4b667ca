import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

/**
 * plantstore's own version, from its package.json (found upward from this module, in src or
 * dist), for the HAR creator. Read once; "unknown" if the package was repackaged without it.
 */
export function plantstoreVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        const manifest: unknown = JSON.parse(readFileSync(candidate, 'utf8'));
        if (typeof manifest === 'object' && manifest !== null && (manifest as { name?: unknown }).name === 'plantstore') {
          const found = (manifest as { version?: unknown }).version;
          if (typeof found === 'string') return found;
        }
      } catch {
        // Not ours or unreadable: keep looking upward.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}
