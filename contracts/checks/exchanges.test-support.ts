/** Hand-made exchanges for the checks' tests: answers, an exchange around one, the seed Plant Store's createPlant to judge them by. */
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { jsonObject, type JsonValue } from '../generators/json-value.js';
import type { ReceivedResponse } from '../report.js';
import type { CheckContext, Exchange, ExchangeFacts } from './index.js';

/** The seed document's createPlant, as a check's context. */
export async function createPlantContext(): Promise<CheckContext> {
  const document = await loadDocument();
  const found = document.operations.find((o) => o.iid === 'createPlant');
  if (!found) throw new Error('createPlant missing');
  return { operation: found, expectUniqueIds: false };
}

export const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

export function answer(status: number, body: unknown, headers: Record<string, string> = JSON_TYPE): ReceivedResponse {
  return { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body), durationMs: 1 };
}

export const plant = jsonObject([
  ['name', 'Monstera'],
  ['tag', 'aroid'],
  ['id', 9007199254740993n],
]);

export function exchange(facts: Partial<ExchangeFacts>, response: ReceivedResponse, payload: JsonValue = plant): Exchange {
  return {
    request: { method: 'POST', url: 'http://h/plants', headers: {}, body: '{}', label: 'test case' },
    response,
    facts: { role: 'create', kind: 'valid', target: 'body', payload, ...facts },
  };
}

export const ok = answer(200, { name: 'Monstera', tag: 'aroid' });
export const badRequest = answer(400, { error: 400, message: 'no' });
export const fresh = { id: { value: 4611686018427387904n, freshness: 'fresh' as const } };
export const literal = { id: { value: 0n, freshness: 'literal' as const } };
