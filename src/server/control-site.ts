/**
 * The control API's site, as the pipeline takes it: the control document bound to the live state.
 * Its own module, imported by startServer at the control API's first request (a start that answers
 * only API requests need not load it). The control API's tests build their site here too, so they
 * run exactly the stages the server runs.
 */
import type { LoadedDocument } from '../core/openapi/load-document.js';
import { bindControlOperation, type ControlContext } from '../control/bind-control.js';
import { compileHostCheck } from '../http/host-check.js';
import { compileSite, type CompiledSite } from '../http/site.js';
import type { SiteParts } from './sites.js';

export interface ControlSiteParts extends SiteParts {
  /** Hosts the open control API answers besides its own names. */
  readonly allowedHosts: readonly string[];
}

/** The control API: neither faulted nor journaled; it answers its own declared 401. */
export function controlSite(document: LoadedDocument, context: ControlContext, parts: ControlSiteParts): CompiledSite {
  const open = context.adminToken === undefined;
  return compileSite(
    { document, bind: (operation) => bindControlOperation(operation, context) },
    {
      // An open control API must not be callable from any web page the developer visits.
      cors: parts.cors && !open,
      // With an admin token the token protects the control API; a rebound page does not have it.
      hostCheck: open ? compileHostCheck(parts.allowedHosts) : undefined,
      preferences: false,
      bodyLimitBytes: parts.bodyLimitBytes,
      bodyBudget: parts.bodyBudget,
      logger: parts.logger,
      index: parts.index,
    },
  );
}
