/**
 * The pipeline's vocabulary: the per-request context the stages fill in, the reply that ends
 * the stages, and the stage itself. Plain data and functions, on the model of Prism's
 * components and fastify's hooks.
 */
import type { IncomingMessage } from 'node:http';
import { statusOf, type DeclaredStatuses, type Failure } from '../core/errors.js';
import type { RefusalShaper } from '../core/openapi/refusal-body.js';
import type { ContractViolation, ValidationOutcome } from '../journal/journal.js';
import { SHARED_TENANT, type TenantId } from '../store/tenants.js';
import type { RequestInput, RequestValidator } from '../validation/request-validator.js';
import type { Answer } from './answer.js';
import type { Binding } from './binding.js';
import type { MockPreferences } from './prefer.js';
import { originForm } from './request.js';
import type { SentMessage } from './respond.js';

/** One operation of a site, compiled once; the statuses it declares (DeclaredStatuses) decide its refusals' statuses. */
export interface ServedOperation extends DeclaredStatuses {
  readonly name: string;
  /** Words its refusals as the document declares them (status by status). */
  readonly refusalBody: RefusalShaper;
  readonly binding: Binding;
  readonly validate: RequestValidator;
}

/** What a stage decided that ends the pipeline, before it is put on the wire. */
export type Reply =
  | { readonly kind: 'answer'; readonly answer: Answer; readonly slowBodyMs?: number }
  /** Worded as an Error body when sent; the Failure is kept as data for the journal and tests. */
  | { readonly kind: 'refusal'; readonly failure: Failure; readonly status: number; readonly slowBodyMs?: number }
  /** A fault: close (empty) or reset the connection without answering. */
  | { readonly kind: 'drop'; readonly reset: boolean };

/** A stage passes the request on. */
export const PASS = undefined;
export type Decision = Reply | typeof PASS;

export type StageName = 'host' | 'cors' | 'route' | 'faults' | 'authorize' | 'body' | 'prefer' | 'validate' | 'handle';

/**
 * One step of the pipeline. `run` decides at once, or returns a promise of what it waits for
 * (a body, a fault's delay, an async handler); `settle` then decides with it. The split keeps
 * waiting to one await per wait, with no closure or extra promise per request.
 */
export interface Stage<Awaited = never> {
  readonly name: StageName;
  run(context: RequestContext): Decision | Promise<Awaited>;
  // Method syntax on purpose: its parameter is bivariant, so a Stage<BodyRead> fits a Stage<unknown>[].
  settle?(context: RequestContext, value: Awaited): Decision;
}

/** Runs once the answer is on the wire (or the connection dropped): log, journal. */
export type ResponseHook = (context: RequestContext) => void;

/**
 * Everything known about one request. The arrival fields are set at creation; every other field
 * has one writer, named in its comment, and every field is always present so its shape never
 * changes. Hooks read it after the answer is sent.
 */
export interface RequestContext {
  readonly request: IncomingMessage;
  readonly method: string;
  readonly path: string;
  /** The query string as sent, without '?'. */
  readonly query: string;
  /** Date.now() when the request arrived. */
  readonly arrivedAt: number;
  /** performance.now() when the request arrived. */
  readonly started: number;

  /** route: the matched operation. */
  operation: ServedOperation | undefined;
  /** route: other operations of the method on the route (Box's "#" alternatives); validate takes the first the request is valid for. */
  alternatives: readonly ServedOperation[];
  /** route */
  pathParameters: Readonly<Record<string, string>>;
  /** route: `path` as the document's paths read it (without the servers' base path it came under, e.g. /api/v3). */
  operationPath: string;
  /** faults: the faults applied ('latency+status'), for the journal. */
  fault: string | undefined;
  /** faults: a slow-body fault's duration. */
  slowBodyMs: number | undefined;
  /** authorize: whose plants the request sees. */
  tenant: TenantId;
  /** body: the bytes read (counted against the body budget until the answer is decided). */
  body: Buffer;
  /** prefer: Prism's Prefer conventions, API site only. */
  preferences: MockPreferences | undefined;
  /** validate: the request as validation and handlers read it. */
  input: RequestInput | undefined;
  /** validate: how validation went, for the journal; undefined when not reached. */
  validation: ValidationOutcome | undefined;
  /** validate: the body as the schema check read it (ids as bigints). */
  validBody: unknown;
  /** handle: proxy mode's contract violations (request and response), for the journal. */
  violations: readonly ContractViolation[] | undefined;

  /** pipeline: the stage whose reply ended the stages. */
  answeredBy: StageName | undefined;
  /** pipeline: the status sent; 0 when the connection was dropped. */
  status: number;
  /** pipeline: why the request was refused, when it was; the log says it. */
  refusal: Failure | undefined;
  /** pipeline: what was sent. */
  response: SentMessage | undefined;
  /** pipeline: from arrival to the last byte sent. */
  durationMs: number;
}

const EMPTY = Buffer.alloc(0);
const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({});

export function requestContext(request: IncomingMessage): RequestContext {
  const url = originForm(request.url ?? '/');
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  return {
    request,
    method: request.method ?? 'GET',
    path,
    operationPath: path,
    query: queryStart === -1 ? '' : url.slice(queryStart + 1),
    arrivedAt: Date.now(),
    started: performance.now(),
    operation: undefined,
    alternatives: [],
    pathParameters: NO_PARAMETERS,
    fault: undefined,
    slowBodyMs: undefined,
    tenant: SHARED_TENANT,
    body: EMPTY,
    preferences: undefined,
    input: undefined,
    validation: undefined,
    validBody: undefined,
    violations: undefined,
    answeredBy: undefined,
    status: 0,
    refusal: undefined,
    response: undefined,
    durationMs: 0,
  };
}

/** The operation the route stage matched; the stages after it run only once it has. */
export function routed(context: RequestContext): ServedOperation {
  if (context.operation === undefined) throw new Error(`a stage ran before the route stage matched ${context.method} ${context.path}`);
  return context.operation;
}

export function answered(answer: Answer): Reply {
  return { kind: 'answer', answer };
}

/**
 * A refusal, its status decided by the error table's policy (statusOf): the entry's rule against
 * `operation` (none before routing), or `override` (--auth-status, a status fault).
 */
export function refused(failure: Failure, operation?: ServedOperation, override?: number): Reply {
  return { kind: 'refusal', failure, status: statusOf(failure, operation, override) };
}
