/**
 * Sign-in by evidence: where the document has an operation that issues a credential (a sign-up,
 * a log-in; issued-credentials.ts says how they are told) and the run was given no bearer token for
 * its secured operations, the run signs up a user of its own, logs in with what it signed up, and
 * uses the token it was issued. Both steps are judged like any valid request: a log-in refused for
 * the very user just signed up is a finding. The token stays out of reports: the answers that
 * carry it are recorded with "$TOKEN" in its place. A log-out would end that session mid-run and
 * turn every later case into a false 401: its cases each get a session of their own (renew: the same
 * log-in sent again, own-session.ts).
 */
import { withPayload } from '../generators/request-cases/body-encoding.js';
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess, operationName } from '../../src/core/openapi/operation.js';
import { securityOf } from '../../src/core/openapi/security.js';
import { lifetimeIn } from '../../src/core/resources/sessions.js';
import type { Exchange } from '../checks/index.js';
import type { HttpClient } from '../client/http-client.js';
import type { SentRequest } from '../report.js';
import { placeholder } from '../client/secrets.js';
import { isJsonObject, parseJsonExact, type JsonObject, type JsonValue } from '../generators/json-value.js';
import type { CaseSource, RequestCase } from './case-source.js';
import { cryptoRandom64 } from './ids.js';
import type { VerifyOptions } from '../report.js';
import { credentialRoles, noteAccepted, noteCredentialRoles, noteRefresh, noteUserUpdate, tokenIn, type CredentialRole } from './issued-credentials.js';
import type { SignIn } from '../../src/core/resources/sign-in.js';
import { send, type RunEnv } from './send.js';
import { settingsOf, type Settings } from './settings.js';
import { clientOrExplain } from './setup.js';

/** Sign-ups drawn before giving up: a short drawn email may be taken (by an earlier run against the same target). */
const SIGN_UP_ATTEMPTS = 6;

export interface SignedIn {
  /** The issued token, for the run's credentials only (never written). */
  readonly token: string;
  /** The sign-up and log-in, to be judged under their operations. */
  readonly exchanges: ReadonlyArray<{ readonly operation: Operation; readonly exchange: Exchange }>;
  /** The log-in that issued the token, to be sent again for a session of another's own (never written). */
  readonly renewal?: SentRequest;
  /** The token's lifetime in seconds, where the answer that issued it said (`expires_in`). */
  readonly expiresIn?: number;
}

/** The run's signed-in session, and how to get another one like it (for a log-out's cases). */
export interface RunSession {
  readonly token: string;
  /** A new token of a session of its own: the log-in sent again, else another user signed up; undefined when none was given. */
  readonly renew: (client: HttpClient) => Promise<string | undefined>;
  /** The token's lifetime in seconds, where its answer said (`expires_in`): the run renews it before then (session-keeper.ts). */
  readonly expiresIn?: number;
}

/**
 * Notes the run's credential issuers, and signs in where the run has no bearer token: the options
 * with the issued token (and tokens known to be checked), and the exchanges to judge.
 */
export async function signInWhereNeeded(
  options: VerifyOptions,
  operations: readonly Operation[],
  source: CaseSource,
  /** The resource model's reading of the sign-in (src/core/resources/sign-in.ts), the one serve answers by. */
  read: SignIn | undefined,
): Promise<{ readonly options: VerifyOptions; readonly exchanges: SignedIn['exchanges']; readonly session?: RunSession }> {
  const roles = credentialRoles(operations);
  noteCredentialRoles(roles);
  if (read?.updateUser !== undefined && read.signUp !== undefined) noteUserUpdate(read.updateUser, read.signUp);
  if (read?.refresh !== undefined) noteRefresh(read.refresh);
  const bearerGiven = options.token !== undefined || (options.auth ?? []).some((form) => /^(bearer|oauth2|openidconnect):/i.test(form));
  // A session presented as an API key in Authorization (RealWorld's `Token <t>`): the issued token is given as that key.
  const sessionKey = bearerGiven || (options.auth ?? []).some((form) => /^apikey:/i.test(form)) ? undefined : authorizationApiKey(operations);
  if (options.dryRun === true || roles.size === 0 || (!needsSignIn(bearerGiven, operations) && sessionKey === undefined)) return { options, exchanges: [] };
  const settings = settingsOf(options);
  const client = clientOrExplain(options.target, { ...settings, concurrency: 1 });
  try {
    const signedIn = await signInByEvidence(roles, source, settings, client);
    if (signedIn === undefined) return { options, exchanges: [] };
    if (signedIn.token === '') return { options, exchanges: signedIn.exchanges };
    const given =
      sessionKey !== undefined && !needsSignIn(false, operations)
        ? { auth: [...(options.auth ?? []), `apikey:${sessionKey}=${signedIn.token}`] }
        : { token: signedIn.token };
    const { renewal } = signedIn;
    const renew = async (again: HttpClient): Promise<string | undefined> => {
      const answer = renewal === undefined ? undefined : await again.send(renewal);
      const token = answer !== undefined && isSuccess(answer.status ?? 0) ? tokenOf(answer.body) : undefined;
      // No log-in, or it no longer logs in (a case changed the user's password): another user is signed up.
      return token ?? ((await signInByEvidence(roles, source, settings, again))?.token || undefined);
    };
    return {
      options: { ...options, ...given, tokensValidated: true },
      exchanges: signedIn.exchanges,
      session: { token: signedIn.token, renew, ...(signedIn.expiresIn === undefined ? {} : { expiresIn: signedIn.expiresIn }) },
    };
  } finally {
    await client.close();
  }
}

/** A run signs in by evidence when no bearer token was given and some operation requires one. */
export function needsSignIn(tokenGiven: boolean, operations: readonly Operation[]): boolean {
  if (tokenGiven) return false;
  return operations.some((operation) => {
    const security = securityOf(operation);
    return !security.open && security.alternatives.some((alternative) => alternative.some((scheme) => scheme.type === 'bearer'));
  });
}

/** The key of the document's API key scheme carried in the Authorization header, where a secured operation takes one. */
function authorizationApiKey(operations: readonly Operation[]): string | undefined {
  for (const operation of operations)
    for (const scheme of securityOf(operation).alternatives.flat())
      if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name.toLowerCase() === 'authorization') return scheme.key ?? scheme.name;
  return undefined;
}

export async function signInByEvidence(
  roles: ReadonlyMap<Operation, CredentialRole>,
  source: CaseSource,
  settings: Settings,
  client: HttpClient,
): Promise<SignedIn | undefined> {
  const signUp = [...roles].find(([, role]) => role === 'sign-up')?.[0];
  const logIn = [...roles].find(([, role]) => role === 'log-in')?.[0];
  if (signUp === undefined) return undefined;
  const envOf = (operation: Operation): RunEnv => ({ client, operation, random: cryptoRandom64, onSent: () => undefined, onUnsendable: () => undefined });
  const context = { ...settings.caseContext, extraProperties: false };
  const recorded: Array<{ operation: Operation; exchange: Exchange }> = [];
  const tokens: string[] = [];

  let user: { readonly payload: JsonObject; readonly exchange: Exchange; readonly token: string | undefined } | undefined;
  for (let attempt = 0; attempt < SIGN_UP_ATTEMPTS && user === undefined; attempt += 1) {
    const [drawn] = fc.sample(source.validCases(signUp, context), { seed: randomInt(2 ** 31), numRuns: 1 });
    if (drawn === undefined || !isJsonObject(drawn.payload)) return undefined;
    const label = `sign-in by evidence: sign up (${operationName(signUp)})`;
    const exchange = await send(envOf(signUp), drawn, { role: 'create', kind: 'valid', target: 'body', payload: drawn.payload }, label);
    if (exchange === undefined) return undefined;
    if (!isSuccess(exchange.response.status ?? 0)) {
      // Taken (by this run or an earlier one): another user is drawn; anything else is judged as a refused valid request.
      if (exchange.response.status !== undefined && exchange.response.status < 500 && attempt < SIGN_UP_ATTEMPTS - 1) continue;
      recorded.push({ operation: signUp, exchange });
      return { token: '', exchanges: recorded };
    }
    noteAccepted(signUp, drawn.payload);
    const token = tokenOf(exchange.response.body);
    if (token !== undefined) tokens.push(token);
    user = { payload: drawn.payload, exchange, token };
  }
  if (user === undefined) return undefined;
  recorded.push({ operation: signUp, exchange: user.exchange });
  let issued = user.token;
  let renewal: SentRequest | undefined;
  let expiresIn = user.token === undefined ? undefined : lifetimeOf(user.exchange.response.body);

  if (logIn !== undefined) {
    const [drawn] = fc.sample(source.validCases(logIn, context), { seed: randomInt(2 ** 31), numRuns: 1 });
    if (drawn !== undefined && isJsonObject(drawn.payload)) {
      const payload = withValuesOf(drawn.payload, leafValues(user.payload));
      const request: RequestCase = withPayload(drawn, payload);
      const label = `sign-in by evidence: log in (${operationName(logIn)}) as the user signed up just before`;
      // Not excused as "never signed up": these credentials were.
      const exchange = await send(envOf(logIn), request, { role: 'create', kind: 'valid', target: 'body', payload }, label, [user.exchange.request]);
      if (exchange !== undefined) {
        recorded.push({ operation: logIn, exchange });
        const token = isSuccess(exchange.response.status ?? 0) ? tokenOf(exchange.response.body) : undefined;
        if (token !== undefined) {
          tokens.push(token);
          renewal = exchange.request;
          expiresIn = lifetimeOf(exchange.response.body);
        }
        issued = token ?? issued;
      }
    }
  }
  return {
    token: issued ?? '',
    exchanges: recorded.map(({ operation, exchange }) => ({ operation, exchange: concealed(exchange, tokens) })),
    ...(renewal === undefined ? {} : { renewal }),
    ...(expiresIn === undefined ? {} : { expiresIn }),
  };
}

/** The `expires_in` (or `expiresIn`) seconds an answer gives, through its objects (core's reading); undefined when it gives none. */
function lifetimeOf(body: string): number | undefined {
  try {
    return lifetimeIn(JSON.parse(body));
  } catch {
    return undefined;
  }
}

function tokenOf(body: string): string | undefined {
  try {
    return tokenIn(parseJsonExact(body));
  } catch {
    return undefined; // not JSON: response-schema-conformance reports it
  }
}

/** Every leaf value of a body by its property name (an envelope's inner names). */
function leafValues(value: JsonObject, into = new Map<string, JsonValue>(), depth = 0): Map<string, JsonValue> {
  for (const [name, inner] of Object.entries(value)) {
    if (isJsonObject(inner) && depth < 3) leafValues(inner, into, depth + 1);
    else if (inner !== undefined) into.set(name, inner);
  }
  return into;
}

/** The drawn log-in body with each leaf the sign-up also gave (email, password) set to what the sign-up gave. */
function withValuesOf(body: JsonObject, values: ReadonlyMap<string, JsonValue>, depth = 0): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const [name, inner] of Object.entries(body)) {
    if (inner === undefined) continue;
    out[name] = isJsonObject(inner) && depth < 3 ? withValuesOf(inner, values, depth + 1) : (values.get(name) ?? inner);
  }
  return out;
}

/** The exchange with every issued token in its answer written as "$TOKEN": a report shows the variable, never the credential. */
function concealed(exchange: Exchange, tokens: readonly string[]): Exchange {
  let body = exchange.response.body;
  for (const token of tokens) if (token.length >= 6) body = body.split(token).join(placeholder('TOKEN'));
  return body === exchange.response.body ? exchange : { ...exchange, response: { ...exchange.response, body } };
}
