/**
 * docs/serve.md's and docs/verify.md's hand-written flag tables list exactly the flags of the option
 * tables, so they cannot drift. The generated docs/options.md is held to the tables by
 * test/docs/generated-pages.unit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SERVE_OPTIONS } from '../../src/server/options/table.js';

const page = (name: string): string => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

test("docs/serve.md's option table lists exactly the table's flags", () => {
  const readme = page('serve.md');
  // The serve table is the first one whose rows start with a flag, up to the first line that is not a row.
  const rows = readme.slice(readme.indexOf('\n| `--')).split('\n').slice(1);
  const table = rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
  const documented = table.map((row) => /^\| `--([a-z-]+)/.exec(row)?.[1]);
  const declared = Object.values(SERVE_OPTIONS).flatMap((entry) => ('flag' in entry && entry.flag !== 'help' ? [entry.flag] : []));
  expect(documented.sort()).toEqual([...declared].sort());
});

test('docs/verify.md names every CONTRACT_* variable of the verify option table', async () => {
  const { VERIFY_OPTIONS } = await import('../../contracts/options.js');
  const readme = page('verify.md');
  const variables = Object.values(VERIFY_OPTIONS).flatMap((entry) => ('env' in entry ? [entry.env] : []));
  expect(variables.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme))).toEqual([]);
});

test("docs/verify.md's flag table lists exactly the verify option table's flags", async () => {
  const { VERIFY_OPTIONS } = await import('../../contracts/options.js');
  // The "| flag | what it does |" table, up to the first line that is not a row.
  const section = page('verify.md');
  const rows = section.slice(section.indexOf('\n| flag | what it does |')).split('\n').slice(3);
  const table = rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
  const documented = table.map((row) => /^\| `--([a-z-]+)/.exec(row)?.[1]);
  const declared = Object.values(VERIFY_OPTIONS).flatMap((entry) => ('flag' in entry && entry.flag !== 'help' ? [entry.flag] : []));
  expect(documented.sort()).toEqual([...declared].sort());
});
