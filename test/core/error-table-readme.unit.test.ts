/**
 * docs/errors.md's "Error codes" table is the error table (src/core/errors.ts) as a reader sees it:
 * the same `error` numbers, with the HTTP statuses the status rules give for the Plant Store. This
 * keeps the two from drifting; the rows' wording is the page's own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { declaredFailureStatus, type Operation } from '../../src/core/openapi/operation.js';
import { ERRORS, statusOf, type ErrorEntry, type Failure, type RefusalName } from '../../src/core/errors.js';

const readme = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** The rows of the table under "## Error codes": [error, HTTP] cells, as written. */
function readmeRows(): string[][] {
  const section = readme.split('\n## Error codes')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\| [0-9a]/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, 3)
        .map((cell) => cell.trim()),
    );
}

/** createPlant's declared statuses, read from the bundled document as the server reads them. */
function plantStore(): { declared: ReadonlySet<number>; failureStatus: number } {
  const document = parse(readFileSync(new URL('../../spec/plant-store.yaml', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
  };
  const operation = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .find((one) => one.operationId === 'createPlant');
  if (!operation) throw new Error('spec/plant-store.yaml has no createPlant');
  const codes = Object.keys(operation.responses);
  return {
    declared: new Set(codes.map(Number)),
    failureStatus: declaredFailureStatus({ responses: codes.map((code) => ({ code })) } as unknown as Operation),
  };
}

describe("docs/errors.md's error codes", () => {
  it("lists exactly the table's Error numbers, with the statuses its rules give for the Plant Store", () => {
    const operation = plantStore();
    const entries = Object.entries(ERRORS) as [RefusalName, ErrorEntry][];
    const fromTable = entries.flatMap(([name, entry]) => {
      if (entry.status === undefined) return [];
      // A status fault has no number of its own: the page's "any | any" row.
      if (entry.error === undefined) return ['any any'];
      const refusal: Failure = { entry: name, error: entry.error, message: '' };
      return [`${entry.error} ${statusOf(refusal, operation)}`];
    });
    // The HTTP cell may go on ("400, or 401 with --auth-status 401"): its first status is the rule's.
    const fromReadme = readmeRows().map(([error, http]) => `${error} ${/^(\d+|any)/.exec(http ?? '')?.[1] ?? http}`);
    expect(fromReadme.length).toBeGreaterThan(10);
    expect(new Set(fromReadme)).toEqual(new Set(fromTable));
  });
});
