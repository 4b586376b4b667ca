/**
 * What a run saw of the operations that issue a credential. Which they are, and which signs up and
 * which logs in, is read from the document once for serve and verify (src/core/resources/sign-in.ts).
 * What their answers depend on is state the schema cannot show (was this user signed up? is this
 * email taken?), so the run keeps what it saw: the values each accepted, to tell "taken" from
 * "refused" (see explainRefusal).
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isPasswordProperty, type CredentialRole } from '../../src/core/resources/sign-in.js';
import { isJsonObject, type JsonValue } from '../generators/json-value.js';

// The reading of the document is the core's, shared with serve; this module keeps what a run saw.
export { credentialRoles, issuesCredential, tokenIn, type CredentialRole } from '../../src/core/resources/sign-in.js';

/** How deep a body is read for credentials: an envelope or two. */
const MAX_DEPTH = 3;

/** Every string leaf of a body with its path ("user.email"), what a taken value is looked up by. */
export function stringLeaves(value: JsonValue | undefined, at = '', depth = 0): Array<[string, string]> {
  if (!isJsonObject(value) || depth > MAX_DEPTH) return [];
  return Object.entries(value).flatMap(([name, inner]): Array<[string, string]> => {
    const path = at === '' ? name : `${at}.${name}`;
    if (typeof inner === 'string') return isPasswordProperty(name) ? [] : [[path, inner]];
    return stringLeaves(inner as JsonValue, path, depth + 1);
  });
}

/** What this run's issuers were seen to do: their roles, and the values each accepted (by path). */
interface Seen {
  readonly role: CredentialRole;
  readonly accepted: Map<string, Set<string>>;
}

const seen = new WeakMap<Operation, Seen>();

/** Says which operations issue credentials in this run (an Operation is one run's object). */
export function noteCredentialRoles(roles: ReadonlyMap<Operation, CredentialRole>): void {
  for (const [operation, role] of roles) seen.set(operation, { role, accepted: new Map() });
}

/** The current-user update (PUT /user) and the sign-up whose accepted values it may find taken. */
const updates = new WeakMap<Operation, Operation>();

/** Says which operation updates the signed-in user: its refusal of a value another user signed up with is expected. */
export function noteUserUpdate(update: Operation, signUp: Operation): void {
  updates.set(update, signUp);
}

/** The operation that trades a refresh token for a session: the run draws its tokens, which no target issued. */
const refreshes = new WeakSet<Operation>();

/** Says which operation renews a session by a refresh token: its refusal of a drawn one is expected. */
export function noteRefresh(refresh: Operation): void {
  refreshes.add(refresh);
}

/** Keeps the values an accepted request of an issuer gave (a username, an email): the target holds them now. */
export function noteAccepted(operation: Operation, payload: JsonValue | undefined): void {
  const state = seen.get(operation);
  if (state === undefined || state.role !== 'sign-up') return;
  for (const [path, value] of stringLeaves(payload)) {
    let values = state.accepted.get(path);
    if (values === undefined) state.accepted.set(path, (values = new Set()));
    values.add(value);
  }
}

/**
 * The credential this run drew and presents to `operation` for a session, which no target issued, in
 * words; undefined when it presents none. Only a refresh's token: a refusal of it is expected, and
 * its acceptance, where the target checks credentials, is a hole (auth-enforced).
 */
export function unissuedCredential(operation: Operation): string | undefined {
  return refreshes.has(operation) ? 'a refresh token this run drew, which the target never issued' : undefined;
}

/**
 * Why a refusal of a valid request to an issuer is expected, or undefined: a log-in with credentials
 * this run never signed up, a refresh with a drawn refresh token, or a sign-up giving a value (an
 * email) this run already had accepted.
 */
export function explainRefusal(operation: Operation, payload: JsonValue | undefined): string | undefined {
  const drawn = unissuedCredential(operation);
  if (drawn !== undefined) return drawn;
  const signUp = updates.get(operation);
  if (signUp !== undefined) {
    // Matched by the leaf's name: the update's envelope need not be the sign-up's.
    const accepted = [...(seen.get(signUp)?.accepted ?? [])];
    const name = (path: string) => path.slice(path.lastIndexOf('.') + 1);
    const taken = stringLeaves(payload).find(([path, value]) => accepted.some(([other, values]) => name(other) === name(path) && values.has(value)));
    return taken === undefined ? undefined : `its ${taken[0]} ${JSON.stringify(taken[1])} was signed up with earlier in this run (taken by another user)`;
  }
  const state = seen.get(operation);
  if (state === undefined) return undefined;
  if (state.role === 'log-in') return 'a log-in with credentials this run never signed up';
  const taken = stringLeaves(payload).find(([path, value]) => state.accepted.get(path)?.has(value) === true);
  return taken === undefined ? undefined : `its ${taken[0]} ${JSON.stringify(taken[1])} was accepted earlier in this run (taken)`;
}
