/** The README's serve flag table lists exactly the flags of the serve option table, so the two cannot drift. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SERVE_OPTIONS } from '../../src/server/options/table.js';

test("the README's serve option table lists exactly the table's flags", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
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

test('the README names every CONTRACT_* variable of the verify option table', async () => {
  const { VERIFY_OPTIONS } = await import('../../contracts/options.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const variables = Object.values(VERIFY_OPTIONS).flatMap((entry) => ('env' in entry ? [entry.env] : []));
  expect(variables.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme))).toEqual([]);
});

test("the README's verify flag table lists exactly the verify option table's flags", async () => {
  const { VERIFY_OPTIONS } = await import('../../contracts/options.js');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  // The "| flag | what it does |" table after the verify heading, up to the first line that is not a row.
  const section = readme.slice(readme.indexOf('## Verifying an implementation'));
  const rows = section.slice(section.indexOf('\n| flag | what it does |')).split('\n').slice(3);
  const table = rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
  const documented = table.map((row) => /^\| `--([a-z-]+)/.exec(row)?.[1]);
  const declared = Object.values(VERIFY_OPTIONS).flatMap((entry) => ('flag' in entry && entry.flag !== 'help' ? [entry.flag] : []));
  expect(documented.sort()).toEqual([...declared].sort());
});
