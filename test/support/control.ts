/**
 * Drives control operations through bindControlOperation the way the pipeline does — authorize,
 * tenant, validate against spec/control-api.yaml, handle — with real stores, journal and faults,
 * without HTTP. What the pipeline adds on top (routing, statuses of refusals) is its own test's.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { IHttpOperation } from '@stoplight/types';
import { expect } from 'vitest';
import { bindControlOperation, type ControlContext } from '../../src/control/bind-control.js';
import { loadDocument, type LoadedDocument } from '../../src/core/openapi/load-document.js';
import { operationName } from '../../src/core/openapi/operation.js';
import type { Failure } from '../../src/errors/failure.js';
import { createFaults } from '../../src/faults/faults.js';
import { createJournal, type JournalEntry, type JournalRecord } from '../../src/journal/journal.js';
import { createPlantStores, SHARED_TENANT, type TenantId } from '../../src/store/tenants.js';
import { compileRequestValidator } from '../../src/validation/request-validator.js';
import { parseExactJson, type JsonValue } from '../../src/core/json/exact-json.js';

export const CONTROL_SPEC = 'spec/control-api.yaml';

let documents: Promise<{ control: LoadedDocument; api: LoadedDocument }> | undefined;

/** Both documents, loaded once per test file (prism takes a moment to read one). */
export function loadDocuments(): Promise<{ control: LoadedDocument; api: LoadedDocument }> {
  documents ??= Promise.all([loadDocument(CONTROL_SPEC), loadDocument()]).then(([control, api]) => ({ control, api }));
  return documents;
}

export interface ControlRequest {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | string[]>>;
  /** JSON text, sent as the raw body (so ids beyond 2^53 are written exactly). */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export type ControlReply =
  | { readonly stage: 'answer'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly text: string; readonly json: JsonValue | undefined }
  | { readonly stage: 'authorize' | 'validate' | 'handle'; readonly failure: Failure };

export interface Harness {
  readonly context: ControlContext;
  call(operationId: string, request?: ControlRequest): Promise<ControlReply>;
  /** Calls and expects an answer with this status. */
  answer(operationId: string, status: number, request?: ControlRequest): Promise<Extract<ControlReply, { stage: 'answer' }>>;
  /** Calls and expects a refusal at this stage. */
  refusal(operationId: string, stage: 'authorize' | 'validate' | 'handle', request?: ControlRequest): Promise<Failure>;
}

export async function controlHarness(options: Partial<Pick<ControlContext, 'adminToken' | 'isolateByToken' | 'startedAt'>> & { journalSize?: number } = {}): Promise<Harness> {
  const { control, api } = await loadDocuments();
  const context: ControlContext = {
    stores: createPlantStores(),
    journal: createJournal(options.journalSize),
    faults: createFaults([], api.operations.map(operationName)),
    api,
    adminToken: options.adminToken,
    isolateByToken: options.isolateByToken ?? false,
    startedAt: options.startedAt ?? Date.now(),
  };
  const byId = new Map<string, IHttpOperation>(control.operations.map((operation) => [operation.iid ?? '', operation]));

  async function call(operationId: string, request: ControlRequest = {}): Promise<ControlReply> {
    const operation = byId.get(operationId);
    if (!operation) throw new Error(`the control document has no ${operationId}`);
    const binding = bindControlOperation(operation, context);
    // As node:http gives them: a body comes with its Content-Length (prism's parameter check reads it).
    const bodyHeaders: Record<string, string> = request.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)) } : {};
    const headers: Record<string, string> = { ...bodyHeaders, ...request.headers };
    // The control document's only scheme is bearer: its credentials never travel in the query.
    const credentials = binding.authorize({ headers, query: '' });
    if (!credentials.ok) return { stage: 'authorize', failure: credentials.failure };
    const tenant = binding.tenant(credentials, headers as IncomingHttpHeaders);
    const path = Object.entries(request.path ?? {}).reduce((text, [name, value]) => text.replace(`{${name}}`, encodeURIComponent(value)), operation.path);
    const input = { method: operation.method.toUpperCase(), path, query: request.query ?? {}, contentType: headers['content-type'], headers, body: Buffer.from(request.body ?? '') };
    const validation = compileRequestValidator(operation)(input);
    if (!validation.ok) return { stage: 'validate', failure: validation.failure };
    const outcome = await binding.handle({ body: validation.body, request: input, pathParameters: request.path ?? {}, tenant, preferences: undefined });
    if (!outcome.ok) return { stage: 'handle', failure: outcome.failure };
    const { status, headers: answerHeaders, body } = outcome.answer;
    const parsed = body === '' ? undefined : parseExactJson(body);
    if (parsed && !parsed.ok) throw new Error(`${operationId} answered text that is not JSON: ${body}`);
    return { stage: 'answer', status, headers: answerHeaders, text: body, json: parsed?.value };
  }

  return {
    context,
    call,
    async answer(operationId, status, request) {
      const reply = await call(operationId, request);
      expect(reply, describe(reply)).toMatchObject({ stage: 'answer', status });
      return reply as Extract<ControlReply, { stage: 'answer' }>;
    },
    async refusal(operationId, stage, request) {
      const reply = await call(operationId, request);
      expect(reply, describe(reply)).toMatchObject({ stage });
      return (reply as Extract<ControlReply, { failure: Failure }>).failure;
    },
  };
}

function describe(reply: ControlReply): string {
  return reply.stage === 'answer' ? `answered ${reply.status} ${reply.text}` : `refused at ${reply.stage}: ${JSON.stringify(reply.failure)}`;
}

/** A journal entry as the pipeline records it, for tests that fill the journal by hand. */
export function journalRecord(overrides: Partial<JournalRecord> & { requestBody?: string; responseBody?: string } = {}): JournalRecord {
  const { requestBody = '{"name":"Monstera","id":1}', responseBody = '{"name":"Monstera"}', ...rest } = overrides;
  return {
    arrivedAt: Date.parse('2026-01-05T09:30:00.000Z'),
    tenant: SHARED_TENANT as TenantId,
    operation: 'createPlant',
    method: 'POST',
    path: '/plants',
    query: '',
    status: 200,
    durationMs: 2.5,
    validation: { ok: true },
    request: { headers: { host: '127.0.0.1:4010', authorization: 'Bearer secret', 'content-type': 'application/json' }, body: requestBody },
    response: { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(responseBody)) }, body: responseBody },
    ...rest,
  };
}

/** A record as the journal shows it once recorded (dated, masked, decoded). */
export function journalEntry(record: JournalRecord): JournalEntry {
  const journal = createJournal(1);
  journal.record(record);
  const [entry] = journal.entries();
  if (!entry) throw new Error('the journal kept nothing');
  return entry;
}
