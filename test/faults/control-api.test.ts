import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/core/errors.js';
import { controlHarness } from '../support/control.js';

describe('addFault', () => {
  test('adds the fault (201) and answers it with its id and hits; the fault then shapes API requests', async () => {
    const control = await controlHarness();
    const reply = await control.answer('addFault', 201, { body: '{"kind":"status","operation":"createPlant","status":503,"times":2}' });
    const fault = reply.json as { id: string };
    expect(reply.json).toEqual({ id: expect.any(String), kind: 'status', operation: 'createPlant', status: 503, times: 2, hits: 0 });
    expect(reply.text.startsWith(`{"id":"${fault.id}"`)).toBe(true);
    expect(control.context.faults.plan('createPlant').outcome).toMatchObject({ id: fault.id, status: 503 });
  });

  test('refuses a spec faults.add cannot apply: 422 with the field named', async () => {
    const control = await controlHarness();
    expect(await control.refusal('addFault', 'handle', { body: '{"kind":"status"}' })).toEqual({
      error: ErrorCode.schemaViolation,
      message: 'a status fault needs status, from 200 to 599',
    });
    expect(await control.refusal('addFault', 'handle', { body: '{"kind":"latency","latencyMs":500,"latencyMaxMs":100}' })).toEqual({
      error: ErrorCode.schemaViolation,
      message: 'latencyMaxMs must not be below latencyMs',
    });
    expect(await control.refusal('addFault', 'handle', { body: '{"kind":"reset","times":99999999999999999999}' })).toMatchObject({
      error: ErrorCode.schemaViolation,
      message: expect.stringMatching(/^times must be/),
    });
    expect(control.context.faults.list()).toEqual([]);
  });

  test('refuses an operation the served document does not have, listing those it has', async () => {
    const control = await controlHarness();
    const refusal = await control.refusal('addFault', 'handle', { body: '{"kind":"empty","operation":"createPlnat"}' });
    expect(refusal).toEqual({ error: ErrorCode.schemaViolation, message: 'operation must name an operation of the document (createPlant), not "createPlnat"' });
  });

  test('the document refuses unknown keys and kinds before the handler', async () => {
    const control = await controlHarness();
    expect(await control.refusal('addFault', 'validate', { body: '{"kind":"status","status":503,"statsu":500}' })).toMatchObject({
      message: expect.stringContaining("'statsu'"),
    });
    expect(await control.refusal('addFault', 'validate', { body: '{"kind":"explode"}' })).toMatchObject({ error: ErrorCode.schemaViolation });
    expect(await control.refusal('addFault', 'validate', { body: '{"kind":"status","status":99}' })).toMatchObject({ error: ErrorCode.schemaViolation });
  });
});

describe('listFaults, deleteFault, clearFaults', () => {
  test('list in the order added, remove one (204), then notFound for it; clear removes all', async () => {
    const control = await controlHarness();
    const first = (await control.answer('addFault', 201, { body: '{"kind":"latency","latencyMs":10}' })).json as { id: string };
    const second = (await control.answer('addFault', 201, { body: '{"kind":"empty","percentage":12.5}' })).json as { id: string };
    expect((await control.answer('listFaults', 200)).json).toEqual([
      { id: first.id, kind: 'latency', latencyMs: 10, hits: 0 },
      { id: second.id, kind: 'empty', percentage: 12.5, hits: 0 },
    ]);
    await control.answer('deleteFault', 204, { path: { id: first.id } });
    expect(control.context.faults.list().map((fault) => fault.id)).toEqual([second.id]);
    expect(await control.refusal('deleteFault', 'handle', { path: { id: first.id } })).toEqual({
      error: ErrorCode.notFound,
      message: expect.stringContaining(`no fault has id "${first.id}"`),
    });
    await control.answer('clearFaults', 204);
    expect((await control.answer('listFaults', 200)).json).toEqual([]);
  });

  test('listFaults shows hits and the times left', async () => {
    const control = await controlHarness();
    await control.answer('addFault', 201, { body: '{"kind":"reset","times":3}' });
    control.context.faults.plan('createPlant');
    expect((await control.answer('listFaults', 200)).json).toMatchObject([{ kind: 'reset', times: 2, hits: 1 }]);
  });
});
