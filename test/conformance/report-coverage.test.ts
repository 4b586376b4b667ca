/**
 * The coverage report says what was seen where (issue 19): a lifecycle step counts under the
 * operation it was sent to, not under the create that started the sequence, and a check that judged
 * nothing gives a reason that is true for that operation. A write the run cannot point at an item
 * of its own is planned without its valid cases, and --dry-run says why.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { renderConsoleReport } from '../../contracts/reporters/console.js';
import { startResourceServer } from './faulty-servers/resource-servers.js';

const pets = fileURLToPath(new URL('../fixtures/documents/petstore-expanded.yaml', import.meta.url));

describe('coverage', () => {
  it('counts a lifecycle step under its own operation, with true reasons for what judged nothing', { timeout: 60_000 }, async () => {
    const server = await startResourceServer('pets');
    try {
      const report = await verify({ target: server.url, spec: pets, runs: 20, seed: 5 });
      expect(report.ok).toBe(true);
      const cell = (operation: string, check: string) => report.coverage.filter((c) => c.operation.startsWith(operation) && c.check === check);
      // The reads of a created or deleted pet are GET /pets/{id}'s, not POST /pets's.
      expect(cell('find pet by id', 'deleted-item-gone').reduce((n, c) => n + c.cases, 0)).toBeGreaterThan(0);
      expect(cell('addPet', 'deleted-item-gone')).toEqual([expect.objectContaining({ cases: 0 })]);
      expect(cell('findPets', 'created-item-listed').reduce((n, c) => n + c.cases, 0)).toBeGreaterThan(0);
      expect(cell('findPets', 'stateful-model')[0]?.skipped).toBe('not applicable: the model runs on operations that create');
      // Lifecycle steps went to the list (created-item-listed judged them), none an update's: the reason must not deny the steps.
      expect(cell('findPets', 'update-applied')[0]?.skipped).toBe('lifecycle steps went to this operation, none of the kind this check judges');
      expect(cell('addPet', 'deleted-item-gone')[0]?.skipped).toBe("no lifecycle step went to this operation (a resource's life runs from its create)");
    } finally {
      await server.close();
    }
  });
});

describe('writes to items the run cannot create', () => {
  const document = {
    openapi: '3.0.3',
    info: { title: 'reports', version: '1' },
    paths: {
      '/reports/{year}': {
        put: {
          operationId: 'replaceReport',
          parameters: [{ name: 'year', in: 'path', required: true, schema: { type: 'integer', minimum: 2000, maximum: 2100 } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } } } } } },
          responses: { '200': { description: 'replaced' }, '400': { description: 'invalid' } },
        },
      },
    },
  };

  it('plans only the requests whose item id is invalid, and --dry-run says why', async () => {
    const report = await verify({ target: 'http://127.0.0.1:9', spec: document, runs: 10, seed: 1, dryRun: true });
    const skipped = report.plan?.[0]?.skipped ?? [];
    expect(skipped).toEqual([
      {
        what: 'valid, boundary and invalid requests (but those with an invalid item id)',
        reason: "it writes to an item the run did not create: {year} names no resource's item; only requests with an invalid {year} are sent",
      },
    ]);
    expect(renderConsoleReport(report)).toContain(
      'skips valid, boundary and invalid requests (but those with an invalid item id): it writes to an item the run did not create',
    );
  });
});
