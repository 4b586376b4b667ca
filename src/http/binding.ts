import type { IncomingHttpHeaders } from 'node:http';
import type { CredentialSource, Credentials } from '../auth/credential-check.js';
import type { TenantId } from '../store/tenants.js';
import type { RequestInput } from '../validation/request-validator.js';
import type { ValidationOutcome } from '../journal/journal.js';
import type { Outcome } from './answer.js';
import type { MockPreferences } from './prefer.js';

/** What a handler is given: the validated body and where the request came from. */
export interface HandlerContext {
  readonly body: unknown;
  readonly request: RequestInput;
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly tenant: TenantId;
  /** Prism-style Prefer header, when the request stated one. */
  readonly preferences: MockPreferences | undefined;
  /** The query string exactly as sent, without '?' (proxy mode forwards it unchanged). */
  readonly queryText?: string;
  /** How request validation went; a site that forwards invalid requests (proxy mode) hands them on. */
  readonly validation?: ValidationOutcome | undefined;
}

/**
 * How the stand-in serves one operation of a document: who may call it, whose data, and the answer.
 * The pipeline declares it and the layers above (the API's handlers, the control API) implement it,
 * so the pipeline never imports them.
 */
export interface Binding {
  /** May wait: a token a sign-in issued can be kept in the shared store. */
  readonly authorize: (request: CredentialSource) => Credentials | Promise<Credentials>;
  /** The tenant whose plants the request sees, once authorized (may wait, as authorize). */
  readonly tenant: (credentials: Extract<Credentials, { ok: true }>, headers: IncomingHttpHeaders) => TenantId | Promise<TenantId>;
  readonly handle: (context: HandlerContext) => Outcome | Promise<Outcome>;
}
