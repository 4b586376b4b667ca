/**
 * The request handler: a site's stages in order (host → cors → route → faults → authorize → body
 * → prefer → validate → handle, as the site has them), until one replies; then the reply goes on
 * the wire and the site's onResponse hooks (log, journal) read the context. Stages return plain
 * data and never throw for anything a client sent; a throw is a defect of ours, answered 500 and logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import { PASS, requestContext, type Reply, type RequestContext, type Stage } from './context.js';
import type { Answer } from './answer.js';
import { corsHeaders } from './cors.js';
import { INTERNAL_ERROR, refusal } from './refusal.js';
import { bodyLeftUnread, dripBody, drop, send, sendRest, type SentMessage } from './respond.js';
import type { CompiledSite } from './site.js';

export interface Sites {
  readonly api: CompiledSite;
  /**
   * Served under `controlPrefix`, ahead of the API; or what builds it, called at its first request
   * (a start that answers only API requests need not load the control API).
   */
  readonly control?: CompiledSite | (() => Promise<CompiledSite>);
  readonly controlPrefix: string;
}

/**
 * Runs `stages` until one replies; waits only where a stage waits. The reply comes back as it is
 * when no stage waited, else as a promise; a stage that throws (a defect of ours) rejects.
 */
export function runStages(stages: readonly Stage<unknown>[], context: RequestContext, from = 0): Reply | Promise<Reply> {
  try {
    for (let index = from; index < stages.length; index += 1) {
      const stage = stages[index] as Stage<unknown>;
      const step = stage.run(context);
      // No async function: a request pays one `then` per stage that waits, and no promise otherwise.
      if (step instanceof Promise) return step.then((value) => decided(stages, context, index, settle(stage, context, value)));
      if (step !== PASS) {
        context.answeredBy = stage.name;
        return step;
      }
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return Promise.reject(new Error(`no stage answered ${context.method} ${context.path}`));
}

/** A waiting stage's decision: its reply, or the stages after it. */
function decided(stages: readonly Stage<unknown>[], context: RequestContext, index: number, decision: Reply | typeof PASS): Reply | Promise<Reply> {
  if (decision === PASS) return runStages(stages, context, index + 1);
  context.answeredBy = (stages[index] as Stage<unknown>).name;
  return decision;
}

function settle(stage: Stage<unknown>, context: RequestContext, value: unknown) {
  if (!stage.settle) throw new Error(`the ${stage.name} stage waited but cannot settle`);
  return stage.settle(context, value);
}

/** Sites that may be replaced while serving (serve --watch): each request reads `current` once. */
export interface SitesHolder {
  readonly current: Sites;
}

export function createRequestHandler(sites: Sites | SitesHolder, logger: Logger): (request: IncomingMessage, response: ServerResponse) => void {
  const holder: SitesHolder = 'current' in sites ? sites : { current: sites };
  const siteOf = (path: string) => {
    const { api, control, controlPrefix } = holder.current;
    // No string built per request: the prefix, then the end or a slash.
    const underControl = path.startsWith(controlPrefix) && (path.length === controlPrefix.length || path[controlPrefix.length] === '/');
    return control !== undefined && underControl ? control : api;
  };

  const failed = (context: RequestContext, error: unknown): Reply => {
    logger.error(`${context.method} ${context.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return INTERNAL_ERROR;
  };
  const notSent = (context: RequestContext, error: unknown) => logger.error(`${context.method} ${context.path}: could not send the answer: ${String(error)}`);

  /** Sends the reply, then runs the hooks; only a reply that waits (a slow body, a streamed rest, an unread body) is awaited. */
  function finish(site: CompiledSite, context: RequestContext, reply: Reply, response: ServerResponse): void {
    let sent: void | Promise<void>;
    try {
      sent = respond(site, context, reply, response);
    } catch (error) {
      notSent(context, error);
      return;
    }
    if (sent === undefined) runHooks(site, context);
    else sent.then(() => runHooks(site, context)).catch((error: unknown) => notSent(context, error));
  }

  function runHooks(site: CompiledSite, context: RequestContext): void {
    try {
      for (const hook of site.onResponse) hook(context);
    } catch (error) {
      notSent(context, error);
    }
  }

  /** The site's stages, then the reply on the wire and the hooks: no promise unless a stage waits. */
  function serve(site: CompiledSite, context: RequestContext, response: ServerResponse): void {
    const reply = runStages(site.stages, context);
    if (reply instanceof Promise)
      reply.then(
        (decided) => finish(site, context, decided, response),
        (error: unknown) => finish(site, context, failed(context, error), response),
      );
    else finish(site, context, reply, response);
  }

  /** A site built at its first request; a failure to build it is a defect of ours, answered 500 and logged. */
  function serveWhenBuilt(build: () => Promise<CompiledSite>, context: RequestContext, response: ServerResponse): void {
    let built: Promise<CompiledSite>;
    try {
      built = build();
    } catch (error) {
      built = Promise.reject(error);
    }
    built.then(
      (site) => serve(site, context, response),
      (error: unknown) => {
        failed(context, error);
        try {
          void respond(holder.current.api, context, INTERNAL_ERROR, response)?.catch(() => undefined);
        } catch {
          // As the answer to a defect: nothing more to do than the log line above.
        }
      },
    );
  }

  return function handleRequest(request, response) {
    const context = requestContext(request);
    const site = siteOf(context.path);
    if (typeof site === 'function') serveWhenBuilt(site, context, response);
    else serve(site, context, response);
  };
}

/**
 * Puts the reply on the wire and notes on the context what was sent. Returns at once when it is all
 * sent (the hot path); a promise only when something waits: an unread body, a slow body, a streamed rest.
 */
function respond(site: CompiledSite, context: RequestContext, reply: Reply, response: ServerResponse): void | Promise<void> {
  const { request } = context;
  // The body was read and the answer decided: its bytes no longer count against the budget.
  if (context.body.length > 0) site.bodyBudget?.release(context.body.length);
  if (reply.kind === 'drop') {
    context.response = drop(request, reply.reset);
    context.durationMs = performance.now() - context.started;
    return undefined;
  }
  const answer = reply.kind === 'answer' ? reply.answer : refusal(reply.failure, reply.status, context.operation?.refusalBody ?? site.refusalBody);
  const cors = site.cors && request.headers.origin !== undefined ? corsHeaders(request.headers.origin, site.exposedHeaders) : undefined;
  // request.complete first: the hot path (its body read) pays no wait.
  if (!request.complete) return bodyLeftUnread(request).then((unread) => sendAnswer(context, reply, answer, cors, unread, response));
  return sendAnswer(context, reply, answer, cors, false, response);
}

function sendAnswer(
  context: RequestContext,
  reply: Exclude<Reply, { readonly kind: 'drop' }>,
  answer: Answer,
  cors: Record<string, string> | undefined,
  unread: boolean,
  response: ServerResponse,
): void | Promise<void> {
  const sent = send(response, answer, cors, unread, reply.slowBodyMs !== undefined);
  context.response = sent;
  context.status = answer.status;
  if (reply.kind === 'refusal') context.refusal = reply.failure;
  if (reply.slowBodyMs === undefined && answer.rest === undefined) {
    context.durationMs = performance.now() - context.started;
    return undefined;
  }
  return sendSlowly(context, sent, reply.slowBodyMs, answer, response);
}

async function sendSlowly(context: RequestContext, sent: SentMessage, slowBodyMs: number | undefined, answer: Answer, response: ServerResponse): Promise<void> {
  if (slowBodyMs !== undefined)
    await dripBody(response, typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body, slowBodyMs, answer.rest === undefined);
  // Journaled once the last byte went, with the whole body's size (the journal keeps its first KiB).
  if (answer.rest !== undefined) context.response = { ...sent, size: await sendRest(response, answer.rest, Buffer.byteLength(answer.body)) };
  context.durationMs = performance.now() - context.started;
}
