/**
 * The pipeline (src/http) sits below what it serves: the API's handlers and the control API bind
 * to it through its Binding, and src/server composes them. An import upward would bring back the
 * http ⇄ control cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve('src');
const ABOVE_HTTP = ['control', 'handlers', 'server', 'cli'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
  );
}

test('src/http imports nothing from the layers above it', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(join(SRC, 'http'))) {
    for (const [, target = ''] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const folder = relative(SRC, resolve(file, '..', target)).split('/')[0] ?? '';
      if (ABOVE_HTTP.includes(folder)) upward.push(`${relative(SRC, file)} → ${target}`);
    }
  }
  expect(upward).toEqual([]);
});
