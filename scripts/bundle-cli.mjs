// @ts-check
// The CLI's `serve` as a few files instead of ~150 ES modules: after tsc, dist/src/cli/main.js is
// replaced by a bundle of itself (rolldown), its lazily loaded parts in dist/src/cli/chunks/
// (serve, the proxy, webhooks, --watch, Redis, the control API), what they share in one chunk.
// Resolving, reading and linking each ES module was a third of a start's CPU (Node 20 has no
// compile cache); see docs/performance.md, "Issue 21, third pass".
//
// Left as they are (external), so a process never holds two copies of one module:
// - npm packages (node_modules), as before;
// - what main.js itself imports statically (errors, package, logger, usage-error, …): shared with
//   `verify`, whose instanceof checks must see the same classes;
// - `verify` (./verify.js) and everything below it: the suite runs from dist/ as tsc wrote it.
//
//   node scripts/bundle-cli.mjs        (npm run build runs it after tsc)
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'src', 'cli');
const MAIN = join(CLI, 'main.js');
/** A bundle starts with this line (after the hashbang): bundling it again would bundle a bundle. */
const MARK = '// plantstore: bundled by scripts/bundle-cli.mjs';

/** Static relative imports of a module written by tsc (`import … from './x.js'`, `export … from`). */
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The modules `file` loads statically, itself included: what `plantstore --version` loads. */
function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) staticClosure(resolve(dirname(file), specifier), seen);
  return seen;
}

export async function bundleCli() {
  if (readFileSync(MAIN, 'utf8').includes(MARK)) throw new Error(`${MAIN} is already a bundle: run tsc (npm run build) first`);
  const shared = staticClosure(MAIN);
  shared.delete(MAIN);
  shared.add(join(CLI, 'verify.js'));
  const bundle = await rolldown({
    input: { main: MAIN },
    platform: 'node',
    logLevel: 'silent',
    external: (id, importer, isResolved) => {
      if (id.startsWith('node:') || !/^[./]/.test(id)) return true;
      return shared.has(isResolved || importer === undefined ? resolve(id) : resolve(dirname(importer), id));
    },
  });
  try {
    // Chunks of an earlier build would linger: their names carry a content hash.
    await rm(join(CLI, 'chunks'), { recursive: true, force: true });
    await bundle.write({
      dir: CLI,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // Modules that two or more chunks share go in one chunk, not one chunk per set of sharers: a
      // start reads main, common and serve (12 chunks before; ~30 ms less CPU under load).
      codeSplitting: { groups: [{ name: 'common', test: /dist\/src\//, minShareCount: 2 }] },
      sourcemap: true,
      banner: (chunk) => (chunk.isEntry ? MARK : ''),
    });
  } finally {
    await bundle.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
