import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMethod, IHttpOperation } from '@stoplight/types';
import type { IHttpRequest } from '@stoplight/prism-http';
import { compileCredentialCheck, type CredentialCheck } from '../auth/bearer.js';
import type { LoadedDocument } from '../document/load-document.js';
import { ErrorCode, failure, type Failure } from '../errors/failure.js';
import { createPlant } from '../handlers/create-plant.js';
import { mockOperation } from '../handlers/mock-operation.js';
import type { Answer, Outcome } from '../handlers/outcome.js';
import type { Logger } from '../log/logger.js';
import { compileRouteTable } from '../routing/route-table.js';
import type { PlantStore } from '../store/plant-store.js';
import { compileRequestValidator, type RequestInput, type RequestValidator } from '../validation/request-validator.js';
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
import { readBody } from './read-body.js';

export interface PipelineOptions {
  /** Accepted bearer tokens; empty accepts any non-empty token. */
  readonly tokens: readonly string[];
  /** HTTP status of an authentication failure; undefined uses the operation's declared failure status. */
  readonly authStatus: 400 | 401 | undefined;
  readonly echoId: boolean;
  readonly cors: boolean;
  readonly bodyLimitBytes: number;
}

/** What the stand-in does for one operation, compiled once per document. */
interface ServedOperation {
  readonly operation: IHttpOperation;
  /** The document's own failure status: 400 if declared, else its first 4xx, else 400. */
  readonly failureStatus: number;
  readonly checkCredentials: CredentialCheck;
  readonly validate: RequestValidator;
  readonly handle: (body: unknown, request: RequestInput) => Outcome;
}

/** The operationIds the stand-in keeps state for; every other operation is mocked by prism. */
const STATEFUL_OPERATION = 'createPlant';

/**
 * Builds the request handler: request → route → auth → validate → handler → response, each stage
 * returning plain data (an Outcome or a Failure), never throwing for anything a client sent.
 */
export function createRequestHandler(document: LoadedDocument, store: PlantStore, options: PipelineOptions, logger: Logger) {
  const routes = compileRouteTable(document.operations);
  const served = new Map<IHttpOperation, ServedOperation>(
    document.operations.map((operation) => [operation, serveOperation(operation, store, options)]),
  );

  async function answer(request: IncomingMessage, method: string, path: string, query: string): Promise<Answer> {
    const route = routes.match(method, path);
    if (route.kind === 'no-path') return refusal(failure(ErrorCode.notFound, `no operation has the path ${path}`), 404);
    if (route.kind === 'no-method') {
      const allow = route.allow.join(', ');
      if (method === 'OPTIONS') return { status: 204, headers: { allow: `${allow}, OPTIONS` }, body: '' };
      return refusal(failure(ErrorCode.methodNotAllowed, `${path} does not have ${method}; it has ${allow}`, { allow }), 405);
    }
    const operation = served.get(route.operation) as ServedOperation;
    const credentials = operation.checkCredentials(request.headers.authorization);
    if (!credentials.ok) return refusal(credentials.failure, options.authStatus ?? operation.failureStatus);

    const body = await readBody(request, options.bodyLimitBytes);
    if (!body.ok) return refusal(body.failure, operation.failureStatus);
    const input: RequestInput = { method, path, query: parseQuery(query), headers: flatHeaders(request.headers), body: body.body };
    const validation = operation.validate(input);
    if (!validation.ok) return refusal(validation.failure, operation.failureStatus);

    const outcome = operation.handle(validation.body, input);
    return outcome.ok ? outcome.answer : refusal(outcome.failure, outcome.failure.error === ErrorCode.internal ? 500 : operation.failureStatus);
  }

  return function handleRequest(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    const cors = options.cors ? corsHeaders(request.headers.origin) : undefined;

    const pending: Promise<Answer> =
      options.cors && isPreflight(method, request.headers)
        ? Promise.resolve(preflight(request.headers, routes.methodsOf(path)))
        : answer(request, method, path, query);

    pending
      .catch((error: unknown): Answer => {
        // A defect in the stand-in, not the client's doing: say so, keep serving.
        logger.error(`${method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return refusal(failure(ErrorCode.internal, 'the stand-in failed to answer; this is a plantstore defect, please report it'), 500);
      })
      .then((result) => {
        send(response, result, cors);
        logger.request({ method, path, status: result.status, durationMs: performance.now() - started });
      })
      .catch((error: unknown) => logger.error(`${method} ${path}: could not send the answer: ${String(error)}`));
  };
}

function serveOperation(operation: IHttpOperation, store: PlantStore, options: PipelineOptions): ServedOperation {
  const handle =
    operation.iid === STATEFUL_OPERATION
      ? (body: unknown) => createPlant(body, store, { echoId: options.echoId })
      : (body: unknown, request: RequestInput) => mockOperation(operation, toPrismRequest(operation, request, body));
  return {
    operation,
    failureStatus: declaredFailureStatus(operation),
    checkCredentials: compileCredentialCheck(operation, options.tokens),
    validate: compileRequestValidator(operation),
    handle,
  };
}

export function declaredFailureStatus(operation: IHttpOperation): number {
  const declared = operation.responses.map((response) => Number(response.code)).filter((code) => code >= 400 && code < 500);
  if (declared.length === 0 || declared.includes(400)) return 400;
  return Math.min(...declared);
}

/** The Error body the document declares: {"error": <code>, "message": "..."}. */
export function errorJson(refused: Failure): string {
  return JSON.stringify({ error: refused.error, message: refused.message });
}

function refusal(refused: Failure, status: number): Answer {
  return { status, headers: { 'content-type': 'application/json', ...refused.headers }, body: errorJson(refused) };
}

function preflight(headers: IncomingHttpHeaders, allow: readonly string[] | undefined): Answer {
  if (!allow) return refusal(failure(ErrorCode.notFound, 'no operation has this path'), 404);
  return { status: 204, headers: preflightHeaders(headers, allow), body: '' };
}

function send(response: ServerResponse, result: Answer, cors: Record<string, string> | undefined): void {
  const headers = cors ? { ...cors, ...result.headers } : result.headers;
  response.writeHead(result.status, { ...headers, 'content-length': Buffer.byteLength(result.body) });
  response.end(result.body);
}

function parseQuery(query: string): Record<string, string | string[]> {
  if (query === '') return {};
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const previous = result[name];
    result[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return result;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function toPrismRequest(operation: IHttpOperation, request: RequestInput, body: unknown): IHttpRequest {
  return { method: operation.method as HttpMethod, url: { path: request.path, query: { ...request.query } }, headers: { ...request.headers }, body };
}
