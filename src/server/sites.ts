/**
 * The API site, as the pipeline takes it: the API document bound to the store and prism's mocker.
 * The control API's site is built in control-site.ts (loaded at its first request).
 */
import type { LoadedDocument } from '../core/openapi/load-document.js';
import { basePathsOf } from '../core/openapi/base-paths.js';
import type { ResourceModel } from '../core/resources/model.js';
import type { Faults } from '../faults/faults.js';
import type { IssuedTokens } from '../auth/issued-tokens.js';
import { apiBinder } from '../handlers/bind-api.js';
import type { CreatedListener } from '../handlers/resource/parts.js';
import type { ProxyOptions } from '../proxy/bind-proxy.js';
import type { Binding } from '../http/binding.js';
import type { IHttpOperation } from '@stoplight/types';
import type { BodyBudget } from '../http/read-body.js';
import { compileSite, type CompiledSite } from '../http/site.js';
import type { SiteIndex } from '../http/stages/route.js';
import type { Journal } from '../journal/journal.js';
import type { Logger } from '../log/logger.js';
import type { ResourceStores } from '../store/item-store.js';

/** What both sites share. */
export interface SiteParts {
  readonly cors: boolean;
  readonly bodyLimitBytes: number;
  readonly bodyBudget?: BodyBudget;
  readonly logger: Logger;
  /** What GET of the site's front door answers (`/`, `/__control`) when no operation has it. */
  readonly index?: SiteIndex | undefined;
}

export interface ApiSiteParts extends SiteParts {
  /** The document's resources: their operations read and write `stores`. */
  readonly model: ResourceModel;
  readonly stores: ResourceStores;
  readonly journal: Journal;
  readonly faults: Faults;
  readonly tokens: readonly string[];
  readonly echoId: boolean;
  readonly isolateByToken: boolean;
  readonly authStatus: 400 | 401 | undefined;
  /** Told of each item created: the document's webhooks go out from here (--webhook). */
  readonly onCreated?: CreatedListener | undefined;
  /** Proxy mode: every operation is answered by the real implementation, not the store or the mocker. */
  readonly proxy?: ProxySite | undefined;
  /** The tokens sign-ins issued, kept across --watch reloads; absent: the document's sign-in is not served. */
  readonly issued?: IssuedTokens | undefined;
  /** The refresh tokens sign-ins issued beside them, kept as `issued` is. */
  readonly refreshTokens?: IssuedTokens | undefined;
  /** --token-lifetime, in seconds. */
  readonly tokenLifetime?: number | undefined;
}

/** Proxy mode's options and binder (proxyBinder), loaded by the caller only when --proxy is given. */
export interface ProxySite {
  readonly options: ProxyOptions;
  readonly bind: (operation: IHttpOperation) => Binding;
}

/** The API: faulted, journaled, Prefer read; --auth-status applies. */
export function apiSite(document: LoadedDocument, parts: ApiSiteParts): CompiledSite {
  const { model, stores, tokens, echoId, isolateByToken, onCreated, proxy, issued, refreshTokens, tokenLifetime } = parts;
  return compileSite(
    { document, bind: proxy ? proxy.bind : apiBinder({ model, stores, tokens, echoId, isolateByToken, onCreated, issued, refreshTokens, tokenLifetime }) },
    {
      cors: parts.cors,
      faults: parts.faults,
      journal: parts.journal,
      // Proxy mode mocks nothing: a Prefer header is the real server's (RFC 7240), forwarded unread.
      preferences: proxy === undefined,
      authStatus: parts.authStatus,
      bodyLimitBytes: parts.bodyLimitBytes,
      bodyBudget: parts.bodyBudget,
      logger: parts.logger,
      index: parts.index,
      forwardInvalid: proxy !== undefined && !proxy.options.strict,
      basePaths: basePathsOf(document.operations),
    },
  );
}
