/**
 * The request handler: a site's stages in order (host → cors → route → faults → authorize → body
 * → prefer → validate → handle, as the site has them), until one replies; then the reply goes on
 * the wire and the site's onResponse hooks (log, journal) read the context. Stages return plain
 * data and never throw for anything a client sent; a throw is a defect of ours, answered 500 and logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.js';
import { PASS, requestContext, type Reply, type RequestContext, type Stage } from './context.js';
import { corsHeaders } from './cors.js';
import { INTERNAL_ERROR, refusal } from './refusal.js';
import { bodyLeftUnread, dripBody, drop, send, sendRest } from './respond.js';
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

/** Runs `stages` until one replies; waits only where a stage waits. */
export async function runStages(stages: readonly Stage<unknown>[], context: RequestContext): Promise<Reply> {
  for (let index = 0; index < stages.length; index += 1) {
    const stage = stages[index] as Stage<unknown>;
    const step = stage.run(context);
    const decision = step instanceof Promise ? settle(stage, context, await step) : step;
    if (decision !== PASS) {
      context.answeredBy = stage.name;
      return decision;
    }
  }
  throw new Error(`no stage answered ${context.method} ${context.path}`);
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

  async function serve(site: CompiledSite, context: RequestContext, response: ServerResponse): Promise<void> {
    let reply: Reply;
    try {
      reply = await runStages(site.stages, context);
    } catch (error) {
      logger.error(`${context.method} ${context.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      reply = INTERNAL_ERROR;
    }
    try {
      await respond(site, context, reply, response);
      for (const hook of site.onResponse) hook(context);
    } catch (error) {
      logger.error(`${context.method} ${context.path}: could not send the answer: ${String(error)}`);
    }
  }

  /** A site built at its first request; a failure to build it is a defect of ours, answered 500 and logged. */
  async function serveWhenBuilt(build: () => Promise<CompiledSite>, context: RequestContext, response: ServerResponse): Promise<void> {
    let site: CompiledSite;
    try {
      site = await build();
    } catch (error) {
      logger.error(`${context.method} ${context.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await respond(holder.current.api, context, INTERNAL_ERROR, response).catch(() => undefined);
      return;
    }
    await serve(site, context, response);
  }

  return function handleRequest(request, response) {
    const context = requestContext(request);
    const site = siteOf(context.path);
    void (typeof site === 'function' ? serveWhenBuilt(site, context, response) : serve(site, context, response));
  };
}

/** Puts the reply on the wire and notes on the context what was sent. */
async function respond(site: CompiledSite, context: RequestContext, reply: Reply, response: ServerResponse): Promise<void> {
  const { request } = context;
  // The body was read and the answer decided: its bytes no longer count against the budget.
  if (context.body.length > 0) site.bodyBudget?.release(context.body.length);
  if (reply.kind === 'drop') {
    context.response = drop(request, reply.reset);
  } else {
    const answer = reply.kind === 'answer' ? reply.answer : refusal(reply.failure, reply.status, context.operation?.refusalBody);
    const cors = site.cors && request.headers.origin !== undefined ? corsHeaders(request.headers.origin) : undefined;
    // request.complete first: the hot path (its body read) pays no await.
    const unread = request.complete ? false : await bodyLeftUnread(request);
    context.response = send(response, answer, cors, unread, reply.slowBodyMs !== undefined);
    context.status = answer.status;
    if (reply.kind === 'refusal') context.refusal = reply.failure;
    if (reply.slowBodyMs !== undefined)
      await dripBody(response, typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body, reply.slowBodyMs, answer.rest === undefined);
    // Journaled once the last byte went, with the whole body's size (the journal keeps its first KiB).
    if (answer.rest !== undefined) context.response = { ...context.response, size: await sendRest(response, answer.rest, Buffer.byteLength(answer.body)) };
  }
  context.durationMs = performance.now() - context.started;
}
