import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { IHttpOperation } from '@stoplight/types';
import { type LoadedDocument } from '../core/openapi/load-document.js';
import { flattenHeaders, headerText } from '../core/http/headers.js';
import { declaredFailureStatus, operationName } from '../core/openapi/operation.js';
import { ErrorCode, errorJson, failure, isServerFailure, type Failure } from '../errors/failure.js';
import type { Fault, Faults } from '../faults/faults.js';
import type { Binding } from '../handlers/binding.js';
import type { Answer } from '../handlers/outcome.js';
import type { Journal, ValidationOutcome } from '../journal/journal.js';
import type { Logger } from '../log/logger.js';
import { compileRouteTable, type RouteTable } from '../routing/route-table.js';
import { SHARED_TENANT, type TenantId } from '../store/tenants.js';
import { compileRequestValidator, type RequestInput, type RequestValidator } from '../validation/request-validator.js';
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
import { parsePrefer } from './prefer.js';
import { readBody, type BodyBudget } from './read-body.js';

/** A document as the stand-in serves it, with each operation bound to its behaviour. */
export interface Site {
  readonly document: LoadedDocument;
  readonly bind: (operation: IHttpOperation) => Binding;
  /** API sites are journaled and subject to faults; the control site is neither. */
  readonly observed: boolean;
}

export interface PipelineOptions {
  /** HTTP status of an authentication failure; undefined uses the operation's declared failure status. */
  readonly authStatus: 400 | 401 | undefined;
  readonly cors: boolean;
  /** CORS on the control site too (only when an admin token protects it). */
  readonly controlCors: boolean;
  readonly bodyLimitBytes: number;
  /** Bytes of bodies buffered across all requests being read; default unbounded. */
  readonly bodyBudget?: BodyBudget;
  /** Whether a Host may reach the control site; undefined: any (an admin token protects it). */
  readonly controlHostCheck?: (host: string | undefined) => boolean;
}

export interface PipelineParts {
  readonly api: Site;
  /** Served under `controlPrefix`, ahead of the API. */
  readonly control?: Site;
  readonly controlPrefix: string;
  readonly journal: Journal;
  readonly faults: Faults;
  readonly logger: Logger;
}

/** What the pipeline decided for one request, before it is put on the wire. */
type Reply =
  | { readonly kind: 'answer'; readonly answer: Answer; readonly slowBodyMs?: number }
  /** A fault: close (empty) or reset the connection without answering. */
  | { readonly kind: 'drop'; readonly reset: boolean };

/** Facts gathered along the way, for the journal; every field is always present so its shape never changes. */
interface Trace {
  operation: string | undefined;
  tenant: TenantId;
  validation: ValidationOutcome | undefined;
  fault: string | undefined;
  body: Buffer;
}

interface ServedOperation {
  readonly name: string;
  /** The document's own failure status: 400 if declared, else its first 4xx, else 400. */
  readonly failureStatus: number;
  /** Every status the operation declares. */
  readonly declared: ReadonlySet<number>;
  readonly binding: Binding;
  readonly validate: RequestValidator;
}

interface CompiledSite {
  readonly site: Site;
  readonly routes: RouteTable;
  readonly served: ReadonlyMap<IHttpOperation, ServedOperation>;
}

const EMPTY = Buffer.alloc(0);
/** RFC 9112 §3.2: an HTTP/1.1 request must name the host; HTTP/1.0 has no Host to send. */
const NO_HOST = failure(ErrorCode.badRequest, 'an HTTP/1.1 request must have a Host header (RFC 9112 §3.2); send Host: <host>:<port>');

/**
 * Builds the request handler: request → route → faults → auth → validate → handler → response.
 * Each stage returns plain data (an Answer or a Failure) and never throws for anything a client
 * sent; a throw is a defect of ours, answered 500 and logged.
 */
export function createRequestHandler(parts: PipelineParts, options: PipelineOptions) {
  const api = compileSite(parts.api);
  const control = parts.control ? compileSite(parts.control) : undefined;
  const { journal, faults, logger, controlPrefix } = parts;

  const controlFolder = `${controlPrefix}/`;
  const isControl = (path: string) => path === controlPrefix || path.startsWith(controlFolder);
  const corsFor = (site: CompiledSite) => (site.site.observed ? options.cors : options.controlCors);

  async function reply(site: CompiledSite, request: IncomingMessage, method: string, path: string, query: string, trace: Trace): Promise<Reply> {
    if (request.headers.host === undefined && request.httpVersionMinor === 1) return answered(refusal(NO_HOST, 400));
    if (site !== api && options.controlHostCheck !== undefined && !options.controlHostCheck(request.headers.host)) return answered(refusal(hostNotAllowed(request.headers.host), 403));
    if (corsFor(site) && isPreflight(method, request.headers)) return answered(preflight(request.headers, site.routes.methodsOf(path)));

    const route = site.routes.match(method, path);
    if (route.kind === 'no-path') return answered(refusal(failure(ErrorCode.notFound, `no operation has the path ${path}`), 404));
    if (route.kind === 'no-method') {
      const allow = route.allow.join(', ');
      if (method === 'OPTIONS') return answered({ status: 204, headers: { allow: `${allow}, OPTIONS` }, body: '' });
      return answered(refusal(failure(ErrorCode.methodNotAllowed, `${path} does not have ${method}; it has ${allow}`, { allow }), 405));
    }
    const served = site.served.get(route.operation) as ServedOperation;
    trace.operation = served.name;

    let slowBodyMs: number | undefined;
    if (site.site.observed) {
      const plan = faults.plan(served.name);
      if (plan.applied.length > 0) trace.fault = plan.applied.join('+');
      // unref'd: a pending fault delay must not keep a stopping server alive.
      if (plan.delayMs > 0) await sleep(plan.delayMs, undefined, { ref: false });
      if (plan.outcome) {
        const forced = faultReply(plan.outcome, served);
        if (forced) return forced;
        slowBodyMs = plan.outcome.bodyDurationMs;
      }
    }

    const credentials = served.binding.authorize({ headers: request.headers, query });
    // --auth-status is about the API's document; the control API answers its own declared 401.
    const authStatus = site.site.observed ? options.authStatus : undefined;
    if (!credentials.ok) return answered(refusal(credentials.failure, authStatus ?? statusOf(credentials.failure, served)));
    trace.tenant = served.binding.tenant(credentials, request.headers);

    const body = await readBody(request, options.bodyLimitBytes, options.bodyBudget);
    if (!body.ok) return answered(refusal(body.failure, statusOf(body.failure, served)));
    trace.body = body.body;
    const input = requestInput(request, method, path, query, body.body);
    const preferences = site.site.observed ? parsePrefer(headerText(request.headers.prefer)) : undefined;
    const validation = served.validate(input);
    trace.validation = validation.ok ? { ok: true } : { ok: false, error: validation.failure.error, message: validation.failure.message };
    // A stated preference is answered from the document even for an invalid body, as Prism does for codes.
    if (!validation.ok && !preferences) return answered(refusal(validation.failure, statusOf(validation.failure, served)));

    const outcome = await served.binding.handle({ body: validation.ok ? validation.body : undefined, request: input, pathParameters: route.pathParameters, tenant: trace.tenant, preferences });
    const answer = outcome.ok ? outcome.answer : refusal(outcome.failure, statusOf(outcome.failure, served));
    return slowBodyMs === undefined ? answered(answer) : { kind: 'answer', answer, slowBodyMs };
  }

  return function handleRequest(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const arrivedAt = Date.now();
    const method = request.method ?? 'GET';
    const url = originForm(request.url ?? '/');
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    const trace: Trace = { operation: undefined, tenant: SHARED_TENANT, validation: undefined, fault: undefined, body: EMPTY };
    const site = control !== undefined && isControl(path) ? control : api;

    reply(site, request, method, path, query, trace)
      .catch((error: unknown): Reply => {
        logger.error(`${method} ${path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return answered(refusal(failure(ErrorCode.internal, 'the stand-in failed to answer; this is a plantstore defect, please report it'), 500));
      })
      .then(async (result) => {
        // The body was read and the answer decided: its bytes no longer count against the budget.
        if (trace.body.length > 0) options.bodyBudget?.release(trace.body.length);
        const cors = corsFor(site) && request.headers.origin !== undefined ? corsHeaders(request.headers.origin) : undefined;
        // request.complete first: the hot path (its body read) pays no await.
        const sent = send(request, response, result, cors, request.complete ? false : await bodyLeftUnread(request));
        if (result.kind === 'answer' && result.slowBodyMs !== undefined) await dripBody(response, Buffer.from(result.answer.body), result.slowBodyMs);
        const durationMs = performance.now() - started;
        logger.request({ method, path, status: result.kind === 'answer' ? result.answer.status : 0, durationMs });
        if (journal.capacity > 0 && site.site.observed) {
          journal.record({
            arrivedAt,
            tenant: trace.tenant,
            operation: trace.operation,
            method,
            path,
            query,
            status: result.kind === 'answer' ? result.answer.status : 0,
            durationMs,
            validation: trace.validation,
            fault: trace.fault,
            request: { headers: request.headers, body: trace.body },
            response: sent,
          });
        }
      })
      .catch((error: unknown) => logger.error(`${method} ${path}: could not send the answer: ${String(error)}`));
  };
}

function compileSite(site: Site): CompiledSite {
  const served = new Map<IHttpOperation, ServedOperation>(
    site.document.operations.map((operation) => [
      operation,
      {
        name: operationName(operation),
        failureStatus: declaredFailureStatus(operation),
        declared: new Set(operation.responses.map((response) => Number(response.code))),
        binding: site.bind(operation),
        validate: compileRequestValidator(operation),
      },
    ]),
  );
  return { site, routes: compileRouteTable(site.document.operations), served };
}

function faultReply(fault: Fault, served: ServedOperation): Reply | undefined {
  switch (fault.kind) {
    case 'status': {
      const status = fault.status ?? served.failureStatus;
      // RFC 9110: these statuses carry no content.
      if (status === 204 || status === 205 || status === 304) return answered({ status, headers: {}, body: '' });
      return answered(refusal(failure((fault.error ?? status) as Failure['error'], fault.message ?? `fault: forced status ${status} for ${served.name}`), status));
    }
    case 'reset':
      return { kind: 'drop', reset: true };
    case 'empty':
      return { kind: 'drop', reset: false };
    default:
      return undefined;
  }
}

/**
 * The HTTP status of a refusal: its own code when the operation declares that status (a document
 * declaring 401 or 404 gets them) or when it is the server's failure (5xx), else the document's
 * failure status: for the Plant Store, whose only failure is 400, always 400.
 */
function statusOf(refused: Failure, served: ServedOperation): number {
  return served.declared.has(refused.error) || isServerFailure(refused) ? refused.error : served.failureStatus;
}

function hostNotAllowed(host: string | undefined): Failure {
  const name = String(host).slice(0, 200);
  return failure(
    ErrorCode.hostNotAllowed,
    `the control API is open (no admin token), so it answers only requests for this server's own names (localhost, IP addresses), not Host "${name}"; pass --allow-host <name> (allowedHosts in a config file) to allow a name, or set an admin token (--admin-token) to protect the control API`,
  );
}

function answered(answer: Answer): Reply {
  return { kind: 'answer', answer };
}

function refusal(refused: Failure, status: number): Answer {
  return { status, headers: { 'content-type': 'application/json', ...refused.headers }, body: errorJson(refused) };
}

function preflight(headers: IncomingHttpHeaders, allow: readonly string[] | undefined): Answer {
  if (!allow) return refusal(failure(ErrorCode.notFound, 'no operation has this path'), 404);
  return { status: 204, headers: preflightHeaders(headers, allow), body: '' };
}

/** Puts the reply on the wire (all of it, or the head of a slow body); returns what was sent, for the journal. */
function send(request: IncomingMessage, response: ServerResponse, reply: Reply, cors: Record<string, string> | undefined, unreadBody: boolean): { headers: Record<string, string>; body: string } {
  if (reply.kind === 'drop') {
    if (reply.reset) request.socket.resetAndDestroy();
    else request.socket.destroy();
    return { headers: {}, body: '' };
  }
  const { answer } = reply;
  const headers = cors === undefined ? { ...answer.headers } : { ...cors, ...answer.headers };
  headers['content-length'] = String(Buffer.byteLength(answer.body));
  if (unreadBody) headers.connection = 'close';
  response.writeHead(answer.status, headers);
  if (reply.slowBodyMs === undefined || answer.body.length === 0) response.end(answer.body);
  return { headers, body: answer.body };
}

/**
 * Whether a body the pipeline never read (refused first: auth, 404, 405, …) is still arriving. Node
 * would drain all of it to keep the connection, megabytes maybe; the answer closes it instead. A
 * refusal is decided before Node has parsed a body that came in the same read as the headers, so
 * that read is let finish first: a small body already received keeps the connection.
 */
async function bodyLeftUnread(request: IncomingMessage): Promise<boolean> {
  if (request.complete) return false;
  const { headers } = request;
  if (headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0')) return false;
  await nextTurn();
  return !request.complete;
}

/** Sends the body in about ten pieces spread over `durationMs`, stopping if the client leaves. */
async function dripBody(response: ServerResponse, body: Buffer, durationMs: number): Promise<void> {
  if (body.length === 0) return;
  const pieces = Math.min(10, body.length);
  const size = Math.ceil(body.length / pieces);
  for (let offset = 0; offset < body.length; offset += size) {
    if (response.destroyed) return;
    response.write(body.subarray(offset, offset + size));
    if (offset + size < body.length) await sleep(durationMs / pieces, undefined, { ref: false });
  }
  response.end();
}

/**
 * The request target as a path and query. RFC 9112 §3.2.2: a server must accept the absolute form
 * (http://host/plants) too, which proxies and some clients send.
 */
function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

function parseQuery(query: string): Record<string, string | string[]> {
  if (query === '') return {};
  // No prototype: "?__proto__=x" is a parameter like any other.
  const result: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(query)) {
    const previous = Object.hasOwn(result, name) ? result[name] : undefined;
    result[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return result;
}

/**
 * The request for validation and handlers. Its headers and query become records only when read
 * (prism's parameter check and mocker read them; the stateful createPlant never does). A class,
 * because V8 keeps prototype getters fast where getters in object literals are not.
 */
class ArrivedRequest implements RequestInput {
  #headers: Record<string, string> | undefined;
  #query: Record<string, string | string[]> | undefined;
  readonly contentType: string | undefined;

  constructor(
    private readonly raw: IncomingHttpHeaders,
    readonly method: string,
    readonly path: string,
    private readonly queryText: string,
    readonly body: Buffer,
  ) {
    this.contentType = raw['content-type'];
  }

  get headers(): Record<string, string> {
    return (this.#headers ??= flattenHeaders(this.raw));
  }

  get query(): Record<string, string | string[]> {
    return (this.#query ??= parseQuery(this.queryText));
  }
}

function requestInput(request: IncomingMessage, method: string, path: string, query: string, body: Buffer): RequestInput {
  return new ArrivedRequest(request.headers, method, path, query, body);
}
