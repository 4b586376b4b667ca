/**
 * Folders import downward only (the layering of undici's lib/core → lib/dispatcher → lib/api):
 * - src/core/ depends on npm packages only, never on anything above it;
 * - contracts/ (the suite) takes from src/ only src/core/, so the suite can never reach into the
 *   server it judges, and the two share one reading of the document;
 * - no cycle between folders. A folder is src/<name> or contracts/<name> (src/core/* counts as one,
 *   "core"); files directly in src/ or contracts/ (index.ts, report.ts) are entry points and public
 *   types, not folders. src/cli is the one place that sees both the server and the suite, so it is
 *   left out of the cycle check.
 * Every import counts, `import type` included: a type import is a dependency of the design.
 * And prism-http's dist/ files are reached from one module only, src/core/prism/adapter.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SELF = 'test/architecture/imports.test.ts';
const ADAPTER = 'src/core/prism/adapter.ts';

/**
 * Folder edges known to close a cycle, each to be removed by the issue that owns it. Listed, not
 * ignored: the test fails when a listed edge disappears, so the list cannot go stale.
 */
/** Edges between folders that are allowed to stay for now, each with the reason; none today. */
const KNOWN_EDGES: ReadonlyArray<{ readonly from: string; readonly to: string; readonly why: string }> = [];

interface Edge {
  readonly from: string;
  readonly to: string;
  /** One file-level import that makes the edge, for the message. */
  readonly example: string;
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) continue;
    files.push(relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return files;
}

/** Every relative module a file names: static imports and re-exports, and dynamic import(). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(SPECIFIER)].map((match) => {
    const target = relative(ROOT, resolve(ROOT, dirname(file), match[1] as string))
      .split(sep)
      .join('/');
    return target.replace(/\.js$/, '.ts');
  });
}

/** "src/core", "src/http", "contracts/runner"; undefined for files directly in src/ or contracts/. */
function folderOf(file: string): string | undefined {
  const [top, name, ...rest] = file.split('/');
  if (rest.length === 0 || name === undefined) return undefined;
  return `${top}/${name}`;
}

const FILES = [...sourceFiles('src'), ...sourceFiles('contracts')];
const IMPORTS = FILES.flatMap((file) => importsOf(file).map((target) => ({ file, target })));

function folderEdges(): Edge[] {
  const edges = new Map<string, Edge>();
  for (const { file, target } of IMPORTS) {
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from} ${to}`;
    if (!edges.has(key)) edges.set(key, { from, to, example: `${file} imports ${target}` });
  }
  return [...edges.values()];
}

/** The strongly connected components with more than one folder (Tarjan), each as its edges. */
function cycles(edges: readonly Edge[]): Edge[][] {
  const next = new Map<string, Edge[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  const nodes = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const { to } of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components.map((component) => edges.filter((edge) => component.includes(edge.from) && component.includes(edge.to)));
}

describe('the import graph', () => {
  it('src/core imports nothing outside src/core', () => {
    const upward = IMPORTS.filter(({ file, target }) => file.startsWith('src/core/') && !target.startsWith('src/core/'));
    expect(
      upward.map(({ file, target }) => `${file} imports ${target}`),
      'src/core must depend on npm packages only',
    ).toEqual([]);
  });

  it('only the prism adapter reaches into @stoplight/prism-http/dist', () => {
    const everyFile = ['src', 'contracts', 'test'].flatMap((folder) =>
      readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.(?:ts|mts|mjs)$/.test(entry.name))
        .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/')),
    );
    const deep = everyFile.filter((file) => file !== ADAPTER && file !== SELF && readFileSync(join(ROOT, file), 'utf8').includes('@stoplight/prism-http/dist'));
    expect(deep, `prism-http's dist/ files are loaded in one place, ${ADAPTER}: import what you need from it`).toEqual([]);
  });

  it("only the prism adapter reads prism's private __bundled__ (product code: src/ and contracts/)", () => {
    const product = ['src', 'contracts'].flatMap((folder) =>
      readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
        .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/')),
    );
    const readers = product.filter((file) => file !== ADAPTER && readFileSync(join(ROOT, file), 'utf8').includes('__bundled__'));
    expect(readers, `prism's bundle is reached through ${ADAPTER} (bundleOf, bundleRootOf)`).toEqual([]);
  });

  it('contracts/ takes from src/ only src/core/', () => {
    const reaching = IMPORTS.filter(({ file, target }) => file.startsWith('contracts/') && target.startsWith('src/') && !target.startsWith('src/core/'));
    expect(
      reaching.map(({ file, target }) => `${file} imports ${target}`),
      'the suite may use the shared core (src/core/), never the server it judges: move what it needs into src/core/',
    ).toEqual([]);
  });

  it('has no cycle between folders (src/cli aside; known edges listed above)', () => {
    const edges = folderEdges().filter((edge) => edge.from !== 'src/cli' && edge.to !== 'src/cli');
    const known = (edge: Edge) => KNOWN_EDGES.some((k) => k.from === edge.from && k.to === edge.to);
    const found = cycles(edges.filter((edge) => !known(edge))).map(
      (cycle) =>
        `cycle between ${[...new Set(cycle.map((edge) => edge.from))].join(', ')}:\n${cycle.map((edge) => `    ${edge.from} → ${edge.to} (${edge.example})`).join('\n')}`,
    );
    expect(found, 'folders must import downward only').toEqual([]);
    const gone = KNOWN_EDGES.filter((k) => !edges.some((edge) => edge.from === k.from && edge.to === k.to));
    expect(
      gone.map((k) => `${k.from} → ${k.to}`),
      'a known edge is gone: remove it from KNOWN_EDGES',
    ).toEqual([]);
  });
});
