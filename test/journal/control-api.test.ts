import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/core/errors.js';
import { SHARED_TENANT, tenantOfToken } from '../../src/store/tenants.js';
import { controlHarness, journalRecord } from '../support/control.js';

async function filledJournal() {
  const control = await controlHarness();
  const { journal } = control.context;
  journal.record(journalRecord({ status: 200 }));
  journal.record(journalRecord({ status: 409, responseBody: '{"error":409,"message":"a plant with id 1 already exists"}' }));
  journal.record(journalRecord({ operation: undefined, method: 'GET', path: '/nowhere', status: 404, validation: undefined }));
  journal.record(journalRecord({ status: 0, fault: 'reset', responseBody: '' }));
  return control;
}

describe('listJournal', () => {
  test('answers the entries oldest first, as recorded, credentials masked', async () => {
    const control = await filledJournal();
    const reply = await control.answer('listJournal', 200);
    expect(reply.json).toHaveLength(4);
    expect(reply.json).toMatchObject([
      { sequence: 1, tenant: SHARED_TENANT, operation: 'createPlant', method: 'POST', path: '/plants', status: 200, validation: { ok: true } },
      { sequence: 2, status: 409, response: { body: '{"error":409,"message":"a plant with id 1 already exists"}' } },
      { sequence: 3, method: 'GET', path: '/nowhere', status: 404 },
      { sequence: 4, status: 0, fault: 'reset' },
    ]);
    expect(reply.text).toContain('"authorization":"Bearer ***"');
    expect(reply.text).not.toContain('secret');
  });

  test('filters by operation, method (any case), path, status, and keeps the last `limit`', async () => {
    const control = await filledJournal();
    const sequences = async (query: Record<string, string>) =>
      ((await control.answer('listJournal', 200, { query })).json as Array<{ sequence: number }>).map((entry) => entry.sequence);
    expect(await sequences({ operation: 'createPlant' })).toEqual([1, 2, 4]);
    expect(await sequences({ method: 'get' })).toEqual([3]);
    expect(await sequences({ path: '/nowhere' })).toEqual([3]);
    expect(await sequences({ status: '409' })).toEqual([2]);
    expect(await sequences({ status: '0' })).toEqual([4]);
    expect(await sequences({ limit: '2' })).toEqual([3, 4]);
    expect(await sequences({ operation: 'createPlant', limit: '1' })).toEqual([4]);
  });

  test('refuses a limit or status the document does not allow, and a repeated parameter', async () => {
    const control = await filledJournal();
    expect(await control.refusal('listJournal', 'validate', { query: { limit: '0' } })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('listJournal', 'validate', { query: { limit: 'ten' } })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('listJournal', 'validate', { query: { status: '600' } })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('listJournal', 'validate', { query: { operation: ['createPlant', 'getPlant'] } })).toMatchObject({
      error: ErrorCode.schemaViolation,
    });
  });
});

describe('clearJournal', () => {
  test('forgets every entry without isolation (204)', async () => {
    const control = await filledJournal();
    control.context.journal.record(journalRecord({ tenant: tenantOfToken('alice') }));
    await control.answer('clearJournal', 204);
    expect(control.context.journal.entries()).toEqual([]);
  });
});

describe('exportJournalHar', () => {
  test('answers a HAR 1.2 log of the same filtered entries', async () => {
    const control = await filledJournal();
    const reply = await control.answer('exportJournalHar', 200, { query: { status: '409' } });
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.json).toMatchObject({
      log: {
        version: '1.2',
        creator: { name: 'plantstore', version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
        entries: [{ _sequence: 2, response: { status: 409, statusText: 'Conflict' } }],
      },
    });
  });
});
