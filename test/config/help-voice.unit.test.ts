/**
 * The help of `plantstore`, `serve` and `verify` speaks of any document: the Plant Store is named
 * only as the bundled example (the default --spec), never as what the tool is for.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { VERIFY_HELP } from '../../contracts/options.js';
import { SERVE_HELP } from '../../src/server/options/table.js';

const EXAMPLE = /the bundled Plant Store example/g;

/** The lines that speak of plants once the bundled example's mention is set aside. */
function plantWords(help: string): string[] {
  return help.split('\n').filter((line) => /plant(?!store)/i.test(line.replace(EXAMPLE, '')));
}

test('serve --help names no plant but the bundled example', () => {
  expect(plantWords(SERVE_HELP)).toEqual([]);
});

test('verify --help names no plant but the bundled example, and no table it does not print', () => {
  expect(plantWords(VERIFY_HELP)).toEqual([]);
  expect(VERIFY_HELP).not.toMatch(/table below/);
});

test('plantstore --help describes both commands for any document', () => {
  const main = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
  const help = execFileSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
  expect(plantWords(help)).toEqual([]);
  expect(help).toMatch(/OpenAPI document/);
});
