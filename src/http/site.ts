import type { IHttpOperation } from '@stoplight/types';
import type { LoadedDocument } from '../core/openapi/load-document.js';
import { declaredStatuses, operationName } from '../core/openapi/operation.js';
import { compileCommonRefusalShaper, compileRefusalShaper, type RefusalShaper } from '../core/openapi/refusal-body.js';
import type { Faults } from '../faults/faults.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../log/logger.js';
import { compileRouteTable } from '../routing/route-table.js';
import { compileRequestValidator, type RequestValidator } from '../validation/request-validator.js';
import type { Binding } from './binding.js';
import type { ResponseHook, ServedOperation, Stage } from './context.js';
import { logRequest, logsRequests, recordJournal } from './hooks.js';
import type { BodyBudget } from './read-body.js';
import { authorizeStage } from './stages/authorize.js';
import { bodyStage } from './stages/body.js';
import { corsStage } from './stages/cors.js';
import { exposedHeaders } from './cors.js';
import { faultStage } from './stages/faults.js';
import { handleStage } from './stages/handle.js';
import { hostStage, type HostCheck } from './stages/host.js';
import { preferStage } from './stages/prefer.js';
import { routeStage, type SiteIndex } from './stages/route.js';
import { forwardingValidateStage, validateStage } from './stages/validate.js';

/** A document as the stand-in serves it, with each operation bound to its behaviour. */
export interface SiteDefinition {
  readonly document: LoadedDocument;
  readonly bind: (operation: IHttpOperation) => Binding;
}

/** What a site does besides routing, authorizing, validating and handling; the API and control sites differ here. */
export interface SiteOptions {
  /** Answer preflights and add CORS headers. */
  readonly cors: boolean;
  /** Which Hosts may reach the site (the open control API); absent: any. */
  readonly hostCheck?: HostCheck | undefined;
  /** Faults shape this site's requests. */
  readonly faults?: Faults;
  /** HTTP status of an authentication failure; absent: the operation's declared failure status. */
  readonly authStatus?: 400 | 401 | undefined;
  /** Read Prism's Prefer header. */
  readonly preferences: boolean;
  /** Journal this site's requests. */
  readonly journal?: Journal;
  readonly bodyLimitBytes: number;
  /** Bytes of bodies buffered across all requests being read; default unbounded. */
  readonly bodyBudget?: BodyBudget | undefined;
  readonly logger: Logger;
  /** What GET of the site's front door answers when no operation has its path. */
  readonly index?: SiteIndex | undefined;
  /** Paths the site also answers under (the document's servers' paths, e.g. /api/v3); the document's own paths win. */
  readonly basePaths?: readonly string[];
  /** Hand requests that fail validation on to the handler (proxy mode), which records the violation. */
  readonly forwardInvalid?: boolean;
}

/** A site ready to serve: its stages in order and its hooks, built once at start. */
export interface CompiledSite {
  readonly stages: readonly Stage<unknown>[];
  readonly onResponse: readonly ResponseHook[];
  readonly cors: boolean;
  /** The Access-Control-Expose-Headers of its cross-origin answers: ours and the document's declared ones. */
  readonly exposedHeaders: string;
  readonly bodyBudget: BodyBudget | undefined;
  /** Words the refusals no operation words (an unknown path): the document's common error shape, where it has one; absent: ours. */
  readonly refusalBody?: RefusalShaper;
  /** Compiles one operation's request validator each, ahead of its first request: for the server's lulls (start-server.ts). */
  readonly prepare: ReadonlyArray<() => void>;
}

export function compileSite(definition: SiteDefinition, options: SiteOptions): CompiledSite {
  const { operations } = definition.document;
  const routes = compileRouteTable(operations, options.basePaths);
  const validators = operations.map((operation) => onFirstUse(() => compileRequestValidator(operation)));
  const served = new Map<IHttpOperation, ServedOperation>(
    operations.map((operation, index) => [
      operation,
      {
        name: operationName(operation),
        ...declaredStatuses(operation),
        refusalBody: compileRefusalShaper(operation),
        binding: definition.bind(operation),
        validate: (validators[index] as FirstUse).validate,
      },
    ]),
  );
  const stages: Stage<unknown>[] = [hostStage(options.hostCheck)];
  if (options.cors) stages.push(corsStage(routes));
  stages.push(routeStage(routes, served, options.index));
  if (options.faults) stages.push(faultStage(options.faults));
  stages.push(authorizeStage(options.authStatus), bodyStage(options.bodyLimitBytes, options.bodyBudget));
  if (options.preferences) stages.push(preferStage);
  stages.push(options.forwardInvalid === true ? forwardingValidateStage : validateStage, handleStage);

  const onResponse: ResponseHook[] = logsRequests(options.logger) ? [logRequest(options.logger)] : [];
  // A journal of capacity 0 keeps nothing: no hook at all.
  if (options.journal && options.journal.capacity > 0) onResponse.push(recordJournal(options.journal));
  const declared = operations.flatMap((operation) => operation.responses.flatMap((response) => (response.headers ?? []).map((header) => header.name)));
  return {
    stages,
    onResponse,
    cors: options.cors,
    exposedHeaders: exposedHeaders(declared),
    bodyBudget: options.bodyBudget,
    refusalBody: compileCommonRefusalShaper(operations),
    prepare: validators.map((validator) => validator.prepare),
  };
}

interface FirstUse {
  readonly validate: RequestValidator;
  readonly prepare: () => void;
}

/**
 * A request validator compiled when its operation is first asked for or in a lull before that, not
 * at start: compiling every operation's schemas was most of start-up on a large document (Ajv code
 * generation), and most operations of a large document are never called in a frontend session.
 */
function onFirstUse(compile: () => RequestValidator): FirstUse {
  let validator: RequestValidator | undefined;
  return {
    validate: (request) => (validator ??= compile())(request),
    prepare: () => void (validator ??= compile()),
  };
}
