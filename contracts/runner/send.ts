/** Sending one generated case and recording it as an exchange: the unit every scenario is built from. */
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { Exchange, ExchangeFacts } from '../checks/index.js';
import { isSuccess } from '../../src/core/openapi/operation.js';
import { UnsendableRequestError, urlOn, type HttpClient } from '../client/http-client.js';
import type { SentRequest } from '../report.js';
import type { RequestCase } from './case-source.js';
import { freshIdValue, idIn, withIdIn, type IdValue, type RunIdentifier } from './identifier.js';
import type { Random64 } from './ids.js';
import type { LeftBehind } from './left-behind.js';
import type { Around } from './owned-items.js';
import type { ItemSupply } from './item-supply.js';
import { explainRefusal, noteAccepted, unissuedCredential } from './issued-credentials.js';
import { noteAssigned } from './assigned-ids.js';
import { isJsonObject, parseJsonExact } from '../generators/json-value.js';

export interface RunEnv {
  readonly client: HttpClient;
  readonly operation: Operation;
  readonly random: Random64;
  /** Called once per request put on the wire (counting, progress). */
  readonly onSent: () => void;
  /** Called for a case the HTTP client refused to send (e.g. a header with a newline): skipped. */
  readonly onUnsendable: (reason: string) => void;
  /** The identifier of this operation's resource: its property and the ids to draw (sized to its type and to what the target takes). */
  readonly identifier?: RunIdentifier | undefined;
  /** The operation's body names the item its path names (Plan.bodyNamesPathItem): its id is never changed. */
  readonly bodyNamesPathItem?: true;
  /** Set under --replay: ids are drawn fresh again (the run that found a problem left its own in the target), and the labels say so. */
  readonly replaying?: true;
  /**
   * Where a write must name only items this run created (owned-items.ts): the case as it may be sent
   * (its path's item ids replaced by the run's own), or undefined when it must not be sent at all.
   */
  readonly rewrite?: (requestCase: RequestCase) => RequestCase | undefined;
  /** Runs one case of this operation with the items its path names created before and deleted after (owned-items.ts). */
  readonly around?: Around;
  /** Deletes what a case of this operation created (Plan.tidy); property.ts runCase calls it inside `around`, before the case's own items go. */
  readonly tidy?: (exchanges: readonly Exchange[]) => Promise<void>;
  /** Where a create case's item goes when it is done, for a delete case to take (item-supply.ts); only in the main phase. */
  readonly supply?: ItemSupply;
  /** Collects what the run created and could not delete again (left-behind.ts). */
  readonly leftBehind?: LeftBehind;
  /** --header: sent on every request (credential values as "$VARIABLE"s); see withExtraHeaders. */
  readonly extraHeaders?: { readonly headers: Readonly<Record<string, string>>; readonly credentialNames: ReadonlySet<string> };
}

/**
 * The case's headers with the run's --header ones: those that carry credentials replace the
 * case's (the user's credentials win), except in cases about credentials, which leave them off;
 * the others are added where the case has none of that name.
 */
export function withExtraHeaders(requestCase: RequestCase, extra: RunEnv['extraHeaders']): Readonly<Record<string, string>> {
  if (extra === undefined || Object.keys(extra.headers).length === 0) return requestCase.headers;
  const aboutAuth = requestCase.kind === 'invalid' && requestCase.target === 'auth';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra.headers)) if (!(aboutAuth && extra.credentialNames.has(name))) headers[name] = value;
  for (const [name, value] of Object.entries(requestCase.headers)) {
    if (!aboutAuth && extra.credentialNames.has(name) && name in extra.headers) continue;
    headers[name] = value;
  }
  return headers;
}

export function requestOf(env: RunEnv, requestCase: RequestCase, label: string): SentRequest {
  const request = {
    method: requestCase.method,
    url: urlOn(env.client.baseUrl, requestCase.path),
    headers: withExtraHeaders(requestCase, env.extraHeaders),
    label,
    ...(requestCase.kind === 'invalid' && requestCase.target === 'auth' ? { credentialsAltered: true as const } : {}),
  };
  return requestCase.body === undefined ? request : { ...request, body: requestCase.body };
}

/**
 * What common servers take in the request line and headers together (nginx's default buffers,
 * half of Node's 16 KiB): a valid case beyond it would be refused with 431 or 414 for its size, not
 * its content, so it is not sent (false alarm 3 of issue 10). Invalid cases may test limits on purpose.
 */
export const REQUEST_HEAD_LIMIT = 8 * 1024;

/** The bytes of the request line and headers, about as they go on the wire. */
export function headBytes(request: Pick<SentRequest, 'method' | 'url' | 'headers'>): number {
  const url = new URL(request.url);
  let bytes = Buffer.byteLength(`${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`);
  for (const [name, value] of Object.entries(request.headers)) bytes += Buffer.byteLength(`${name}: ${value}\r\n`);
  return bytes;
}

/**
 * The head's bytes when they exceed `limit`, else undefined. Counting every request's bytes was
 * 2% of a run's time, so a bound comes first: a UTF-16 code unit is at most 3 bytes of UTF-8 in a
 * header, and at most 6 in the URL (percent-encoded, "é" → "%C3%A9"), so a head under the limit by
 * that bound (the whole URL, origin included) needs no counting.
 */
export function headBytesOver(request: Pick<SentRequest, 'method' | 'url' | 'headers'>, limit: number): number | undefined {
  let bound = 6 * request.url.length + 3 * (request.method.length + 32);
  for (const name in request.headers) bound += 3 * (name.length + (request.headers[name] as string).length + 4);
  if (bound <= limit) return undefined;
  const bytes = headBytes(request);
  return bytes > limit ? bytes : undefined;
}

/** Sends `requestCase`; undefined when it could not be sent at all (the case is then skipped). */
export async function send(
  env: RunEnv,
  generated: RequestCase,
  given: ExchangeFacts,
  label: string,
  before?: readonly SentRequest[],
): Promise<Exchange | undefined> {
  const requestCase = env.rewrite === undefined ? generated : env.rewrite(generated);
  if (requestCase === undefined) return undefined;
  // A body that names the path's item names the run's own item now: judged as sent.
  const withPayload = requestCase.payload === generated.payload ? given : { ...given, payload: requestCase.payload };
  // The path names the run's own item now: it is there, so a 404 is not "an item it does not hold".
  const facts: ExchangeFacts = requestCase.path === generated.path ? withPayload : { ...withPayload, ownedItem: true, itemMayBeAbsent: false };
  const request = requestOf(env, requestCase, label);
  const oversized = requestCase.kind === 'valid' ? headBytesOver(request, REQUEST_HEAD_LIMIT) : undefined;
  if (oversized !== undefined) {
    env.onUnsendable(`${label}: its URL and headers (${oversized} bytes) exceed the ${REQUEST_HEAD_LIMIT} bytes common servers accept`);
    return undefined;
  }
  try {
    const response = await env.client.send(request);
    env.onSent();
    return before === undefined || before.length === 0 ? { request, response, facts } : { request, response, facts, before };
  } catch (error) {
    if (error instanceof UnsendableRequestError) {
      env.onUnsendable(error.message);
      return undefined;
    }
    throw error;
  }
}

/** The case's id: the identifier's property (a top-level integer "id" without one), if the body carries one of its type. */
export function idOf(requestCase: RequestCase, identifier?: RunIdentifier): IdValue | undefined {
  return idIn(requestCase, identifier);
}

/** The same case with its id replaced, or undefined where that would change something else (see withIdIn). */
export function withId(requestCase: RequestCase, id: IdValue, identifier?: RunIdentifier): RequestCase | undefined {
  return withIdIn(requestCase, id, identifier);
}

/** An answer that refuses (not 2xx) without failing (not 5xx, not a transport error). */
export function isRefusal(exchange: Exchange): boolean {
  const status = exchange.response.status;
  return status !== undefined && status < 500 && !isSuccess(status);
}

/**
 * Sends a valid create; if it is refused, sends the same payload again with a never-used id and
 * attaches that retry to the first exchange's facts, so the checks can tell a taken id from a
 * refused payload. Returns the exchanges in the order sent.
 */
export async function sendCreate(
  env: RunEnv,
  requestCase: RequestCase,
  facts: ExchangeFacts,
  label: string,
  before?: readonly SentRequest[],
): Promise<Exchange[]> {
  // A drawn refresh token is presented whatever the answer: a target that checks credentials must refuse it (auth-enforced).
  const unissued = unissuedCredential(env.operation);
  const sent = await send(env, requestCase, unissued === undefined ? facts : { ...facts, unissuedCredential: unissued }, label, before);
  if (sent === undefined) return [];
  // An operation that issues credentials answers by state the schema cannot show (issued-credentials.ts).
  if (isSuccess(sent.response.status ?? 0)) {
    noteAccepted(env.operation, facts.payload);
    const assigned = facts.id === undefined ? assignedKey(sent.response.body, env.identifier?.property ?? 'id') : undefined;
    if (assigned !== undefined) noteAssigned(env.client, requestCase.method, requestCase.path, assigned);
  }
  const because = isRefusal(sent) ? explainRefusal(env.operation, facts.payload) : undefined;
  const first = because === undefined ? sent : { ...sent, facts: { ...sent.facts, refusalExpected: because } };
  if (!isRefusal(first) || env.bodyNamesPathItem === true || because !== undefined) return [first];
  const id = facts.id?.value ?? idOf(requestCase, env.identifier);
  const fresh = freshIdValue(env.random, env.identifier, typeof id === 'bigint' && id < 0n);
  const retryCase = fresh === undefined ? undefined : withId(requestCase, fresh, env.identifier);
  if (retryCase === undefined) return [first];
  const retryFacts: ExchangeFacts = {
    role: 'retry',
    kind: 'valid',
    target: requestCase.target,
    payload: retryCase.payload,
  };
  const retry = await send(env, retryCase, retryFacts, `${label}, sent again with a never-used id after a refusal`, [...(before ?? []), first.request]);
  if (retry === undefined) return [first];
  return [{ ...first, facts: { ...first.facts, retry: { request: retry.request, response: retry.response } } }, retry];
}

/** The id a create's answer gives (its top-level identifier property), as text. */
function assignedKey(body: string | undefined, property: string | undefined): string | undefined {
  if (body === undefined || property === undefined) return undefined;
  try {
    const value = parseJsonExact(body);
    const key = isJsonObject(value) ? value[property] : undefined;
    return typeof key === 'string' || typeof key === 'bigint' || typeof key === 'number' ? String(key) : undefined;
  } catch {
    return undefined;
  }
}
