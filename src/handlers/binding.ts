import type { IncomingHttpHeaders } from 'node:http';
import type { CredentialSource, Credentials } from '../auth/credential-check.js';
import type { TenantId } from '../store/tenants.js';
import type { RequestInput } from '../validation/request-validator.js';
import type { MockPreferences } from './mock-operation.js';
import type { Outcome } from './outcome.js';

/** What a handler is given: the validated body and where the request came from. */
export interface HandlerContext {
  readonly body: unknown;
  readonly request: RequestInput;
  readonly pathParameters: Readonly<Record<string, string>>;
  readonly tenant: TenantId;
  /** Prism-style Prefer header, when the request stated one. */
  readonly preferences: MockPreferences | undefined;
}

/** How the stand-in serves one operation of a document: who may call it, whose data, and the answer. */
export interface Binding {
  readonly authorize: (request: CredentialSource) => Credentials;
  /** The tenant whose plants the request sees, once authorized. */
  readonly tenant: (credentials: Extract<Credentials, { ok: true }>, headers: IncomingHttpHeaders) => TenantId;
  readonly handle: (context: HandlerContext) => Outcome | Promise<Outcome>;
}
