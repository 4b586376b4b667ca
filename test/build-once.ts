/**
 * vitest globalSetup: tests that spawn the CLI run dist/, so build it once before any test file
 * runs, and only when a source file is newer than the build (on CI, `npm ci` has just built it):
 * tsc, then the CLI's bundle, as `npm run build` does.
 * One build here means no two test files ever write dist/ at the same time.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILT = join(root, 'dist', 'src', 'cli', 'main.js');

export default function buildOnce(): void {
  if (builtAt() >= newestSource()) return;
  try {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'pipe' });
  } catch (error) {
    // tsc still emits JavaScript when types are wrong; type errors are `npm run typecheck`'s to report.
    if (builtAt() === 0) throw error;
    process.stderr.write(`build-once: tsc reported type errors (see npm run typecheck); testing the JavaScript it emitted\n`);
  }
  // As npm run build: the CLI's serve bundled (scripts/bundle-cli.mjs), so tests spawn what users run.
  execFileSync(process.execPath, [join(root, 'scripts', 'bundle-cli.mjs')], { stdio: 'pipe' });
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return 0;
  }
}

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(root, 'src'));
  walk(join(root, 'contracts'));
  return newest;
}
