/**
 * Drives control operations through the control site's own stages, as the server compiles them
 * (src/server/sites.ts: host, route, authorize, body, validate against spec/control-api.yaml,
 * handle), with real stores, journal and faults, for a request made in memory instead of on a
 * socket. A reply says which stage ended the pipeline; the status it gets is the pipeline's own test's.
 */
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { expect } from 'vitest';
import type { ControlContext } from '../../src/control/bind-control.js';
import { loadDocument, type LoadedDocument } from '../../src/core/openapi/load-document.js';
import type { Failure } from '../../src/core/errors.js';
import { createFaults } from '../../src/faults/faults.js';
import { requestContext, type StageName } from '../../src/http/context.js';
import { runStages } from '../../src/http/pipeline.js';
import { DEFAULTS } from '../../src/server/start-server.js';
import { operationName } from '../../src/core/openapi/operation.js';
import { createJournal, type JournalEntry, type JournalRecord } from '../../src/journal/journal.js';
import { createLogger } from '../../src/log/logger.js';
import { controlSite } from '../../src/server/control-site.js';
import { createResourceStores, SHARED_TENANT, type TenantId } from '../../src/store/tenants.js';
import { readRequestJson, type JsonValue } from '../../src/core/json/exact-json.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { storedPlants, type Plants } from './plants.js';
import { compileItemChecks } from '../../src/server/item-checks.js';

/** A tenant's plants (its 'plants' collection), made on first use. */
export function plantsOf(context: Pick<ControlContext, 'stores'>, tenant: TenantId): Promise<Plants> {
  return storedPlants(context, tenant);
}

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
  | {
      readonly stage: 'answer';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly text: string;
      readonly json: JsonValue | undefined;
    }
  | { readonly stage: StageName; readonly failure: WireFailure };

/** A refusal as a client sees it: the table entry it names decides the status, which the pipeline's own tests check. */
export type WireFailure = Omit<Failure, 'entry'>;

export interface Harness {
  readonly context: ControlContext;
  call(operationId: string, request?: ControlRequest): Promise<ControlReply>;
  /** Calls and expects an answer with this status. */
  answer(operationId: string, status: number, request?: ControlRequest): Promise<Extract<ControlReply, { stage: 'answer' }>>;
  /** Calls and expects a refusal at this stage. */
  refusal(operationId: string, stage: 'authorize' | 'validate' | 'handle', request?: ControlRequest): Promise<WireFailure>;
}

export async function controlHarness(
  options: Partial<Pick<ControlContext, 'adminToken' | 'isolateByToken' | 'startedAt' | 'resources'>> & { journalSize?: number } = {},
): Promise<Harness> {
  const { control, api } = await loadDocuments();
  const context: ControlContext = {
    stores: createResourceStores(),
    checkItem: compileItemChecks(),
    journal: createJournal(options.journalSize),
    faults: createFaults([], api.operations.map(operationName)),
    api,
    resources: options.resources ?? inferResources(api),
    adminToken: options.adminToken,
    isolateByToken: options.isolateByToken ?? false,
    startedAt: options.startedAt ?? Date.now(),
  };
  const site = controlSite(control, context, { cors: false, allowedHosts: [], bodyLimitBytes: DEFAULTS.bodyLimitBytes, logger: createLogger('silent') });
  const byId = new Map(control.operations.map((operation) => [operation.iid ?? '', operation]));

  async function call(operationId: string, request: ControlRequest = {}): Promise<ControlReply> {
    const operation = byId.get(operationId);
    if (!operation) throw new Error(`the control document has no ${operationId}`);
    // As node:http gives them: a body comes with its Content-Length (prism's parameter check reads it).
    const bodyHeaders: Record<string, string> =
      request.body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)) } : {};
    const headers: Record<string, string> = { host: '127.0.0.1:4010', ...bodyHeaders, ...request.headers };
    const path = Object.entries(request.path ?? {}).reduce((text, [name, value]) => text.replace(`{${name}}`, encodeURIComponent(value)), operation.path);
    const query = new URLSearchParams(
      Object.entries(request.query ?? {}).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one): [string, string] => [name, one])),
    ).toString();
    const arrived = arrivedRequest(operation.method.toUpperCase(), query === '' ? path : `${path}?${query}`, headers, request.body ?? '');
    const pipeline = requestContext(arrived);
    const reply = await runStages(site.stages, pipeline);
    if (reply.kind === 'drop') throw new Error(`${operationId}: the control site dropped the connection`);
    if (reply.kind === 'refusal') {
      const { entry: _entry, ...wire } = reply.failure;
      return { stage: pipeline.answeredBy ?? 'handle', failure: wire };
    }
    const { status, headers: answerHeaders } = reply.answer;
    const body = reply.answer.body.toString();
    const parsed = body === '' ? undefined : readRequestJson(body);
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
      return (reply as Extract<ControlReply, { failure: WireFailure }>).failure;
    },
  };
}

/** An HTTP/1.1 request as node:http hands it to the pipeline, its body a stream that ends after `body`. */
function arrivedRequest(method: string, url: string, headers: Record<string, string>, body: string): IncomingMessage {
  const stream = Readable.from(body === '' ? [] : [Buffer.from(body)]);
  return Object.assign(stream, { method, url, headers, httpVersionMinor: 1, complete: false }) as unknown as IncomingMessage;
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
