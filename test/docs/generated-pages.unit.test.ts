/**
 * The generated reference pages (scripts/docs-pages.ts) say what the code's tables say: a page whose
 * generated part differs from a fresh rendering fails here. `npm run docs` (PLANTSTORE_WRITE_DOCS=1)
 * writes the pages instead of comparing them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../contracts/checks/index.js';
import { VERIFY_OPTIONS } from '../../contracts/options.js';
import type { OptionTable } from '../../src/core/options.js';
import { SERVE_OPTIONS } from '../../src/server/options/table.js';
import { GENERATED_PAGES, generatedPart, withGenerated } from '../../scripts/docs-pages.js';

const WRITE = process.env.PLANTSTORE_WRITE_DOCS === '1';
const root = new URL('../../', import.meta.url);
const read = (path: string): string => (existsSync(new URL(path, root)) ? readFileSync(new URL(path, root), 'utf8') : '');

describe('the generated reference pages', () => {
  for (const page of GENERATED_PAGES) {
    it(`${page.path} holds what its table says (npm run docs writes it)`, () => {
      const current = read(page.path) || page.skeleton;
      const expected = withGenerated(current, page.render());
      if (WRITE) writeFileSync(new URL(page.path, root), expected);
      else expect(generatedPart(read(page.path))).toBe(generatedPart(expected));
    });
  }
});

/** The rows of the first table under `heading` whose first cell is code: [cells…]. */
function rowsUnder(page: string, heading: string): string[][] {
  const section = page.split(heading)[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((text) => text.trim()),
    );
}

const flagsOf = (table: OptionTable): string[] =>
  Object.values(table)
    .flatMap((entry) => (entry.flag === undefined ? [] : [entry.flag]))
    .sort();

describe.skipIf(WRITE)('docs/options.md and docs/checks.md, read as a user reads them', () => {
  it('docs/options.md lists every flag of serve and of verify, each once', () => {
    const page = read('docs/options.md');
    const flags = (heading: string) =>
      rowsUnder(page.split('\n## ').find((part) => part.startsWith(heading)) ?? '', heading)
        .map((cells) => /^`--([a-z-]+)/.exec(cells[0] ?? '')?.[1])
        .filter((flag) => flag !== undefined)
        .sort();
    expect(flags('`plantstore serve`')).toEqual(flagsOf(SERVE_OPTIONS));
    expect(flags('`plantstore verify`')).toEqual(flagsOf(VERIFY_OPTIONS));
  });

  it("docs/checks.md gives every check, in report order, with the check's own description", () => {
    const rows = rowsUnder(read('docs/checks.md'), '| check |');
    const documented = rows.map(([id = '', , description = '']) => [/^`([a-z-]+)`/.exec(id)?.[1], description.replaceAll('\\|', '|')]);
    expect(documented).toEqual(CHECKS.map((check) => [check.id, check.description]));
  });
});
