import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bindControlOperation, CONTROL_HANDLERS } from '../../src/control/bind-control.js';
import { controlSpecPath, loadControlDocument } from '../../src/control/control-document.js';
import { createFaults } from '../../src/faults/faults.js';
import { createJournal } from '../../src/journal/journal.js';
import { compileItemChecks } from '../../src/server/item-checks.js';
import { createResourceStores } from '../../src/store/tenants.js';
import { CONTROL_SPEC, loadDocuments } from '../support/control.js';
import { inferResources } from '../../src/core/resources/infer.js';

describe('spec/control-api.yaml', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(CONTROL_SPEC);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('loads with loadDocument, every operation under /__control with the admin bearer scheme', async () => {
    const { control } = await loadDocuments();
    expect(control.title).toBe('plantstore control API');
    expect(control.operations.length).toBe(21);
    for (const operation of control.operations) {
      expect(operation.path, operation.iid).toMatch(/^\/__control\//);
      // Health is open, so readiness probes carry no secret.
      if (operation.iid === 'getHealth') expect(operation.security, operation.iid).toEqual([]);
      else expect(operation.security, operation.iid).toEqual([[expect.objectContaining({ key: 'adminAuth', type: 'http', scheme: 'bearer' })]]);
    }
  });

  test('declares exactly the operations plantstore has handlers for, with the agreed methods and paths', async () => {
    const { control } = await loadDocuments();
    const declared = control.operations.map((operation) => `${operation.iid} ${operation.method.toUpperCase()} ${operation.path}`).sort();
    expect(declared).toEqual(
      [
        'getHealth GET /__control/health',
        'listPlants GET /__control/plants',
        'seedPlants POST /__control/plants',
        'resetPlants DELETE /__control/plants',
        'getPlant GET /__control/plants/{id}',
        'deletePlant DELETE /__control/plants/{id}',
        'listItems GET /__control/resources/{resource}/items',
        'seedItems POST /__control/resources/{resource}/items',
        'resetItems DELETE /__control/resources/{resource}/items',
        'getItem GET /__control/resources/{resource}/items/{id}',
        'deleteItem DELETE /__control/resources/{resource}/items/{id}',
        'listJournal GET /__control/journal',
        'exportJournalHar GET /__control/journal/har',
        'clearJournal DELETE /__control/journal',
        'streamJournal GET /__control/journal/events',
        'listFaults GET /__control/faults',
        'addFault POST /__control/faults',
        'clearFaults DELETE /__control/faults',
        'deleteFault DELETE /__control/faults/{id}',
        'listResources GET /__control/resources',
        'listWebhooks GET /__control/webhooks',
      ].sort(),
    );
    expect(Object.keys(CONTROL_HANDLERS).sort()).toEqual(control.operations.map((operation) => operation.iid).sort());
  });

  test('every operation declares 400 and 401, per-id ones 404 too, so each refusal gets its own status', async () => {
    const { control } = await loadDocuments();
    for (const operation of control.operations) {
      const failures = operation.responses.map((response) => response.code).filter((code) => code.startsWith('4'));
      const perId = ['getPlant', 'deletePlant', 'deleteFault', 'listItems', 'seedItems', 'resetItems', 'getItem', 'deleteItem'].includes(operation.iid ?? '');
      const open = operation.iid === 'getHealth';
      expect([...failures].sort(), operation.iid).toEqual(perId ? ['400', '401', '404'] : open ? ['400'] : ['400', '401']);
    }
  });

  test('writes plant ids as int64 integers and documents the admin token as optional', async () => {
    const document = parseYaml(await readFile(CONTROL_SPEC, 'utf8')) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }>; securitySchemes: Record<string, { description: string }> };
    };
    expect(document.components.schemas.NewPlant?.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(document.components.schemas.SeedResult?.properties.duplicates).toMatchObject({ items: { type: 'integer', format: 'int64' } });
    expect(document.components.securitySchemes.adminAuth?.description).toMatch(/only when one\s+is configured/);
  });

  test('the shipped copy is found from the module, wherever the process runs', async () => {
    expect(controlSpecPath()).toBe(resolve(CONTROL_SPEC));
    expect((await loadControlDocument()).operations.map((operation) => operation.iid)).toContain('getHealth');
  });

  test('bindControlOperation refuses an operation it has no handler for, at start-up', async () => {
    const { api } = await loadDocuments();
    const context = {
      stores: createResourceStores(),
      checkItem: compileItemChecks(),
      journal: createJournal(),
      faults: createFaults(),
      api,
      resources: inferResources(api),
      adminToken: undefined,
      isolateByToken: false,
      startedAt: 0,
    };
    const [createPlant] = api.operations;
    expect(createPlant).toBeDefined();
    expect(() => bindControlOperation(createPlant!, context)).toThrow(/does not serve: createPlant; expected one of getHealth/);
  });
});
