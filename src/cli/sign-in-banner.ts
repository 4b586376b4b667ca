/** The banner's account of the document's sign-in (docs/sign-in.md): which operations do what, where users are kept, which tokens count. */
import type { Operation } from '../core/openapi/load-document.js';
import { operationRoles, type ResourceModel } from '../core/resources/model.js';
import { tokenPath } from '../core/resources/sign-in.js';
import { declaredLifetime } from '../core/resources/sessions.js';
import { jsonSuccessSchema } from '../core/resources/responses.js';
import { usersResourceOf } from '../handlers/bind-api.js';

export function signInLines(model: ResourceModel, configuredTokens: number, tokenLifetime?: number): string[] {
  const { signIn } = model;
  if (signIn === undefined) return [];
  const named = (operation: Operation | undefined, what: string) =>
    operation === undefined ? [] : [`${operation.method.toUpperCase()} ${operation.path} ${what}`];
  const users = usersResourceOf(signIn, operationRoles(model));
  const steps = [
    ...named(signIn.signUp, `signs up (users kept ${users === undefined ? 'in a users collection of the tenant' : `as items of ${users.name}`})`),
    ...named(signIn.logIn, `logs in (by ${signIn.identity.join(' and ') || 'nothing: no property names a user'} and password)`),
    ...named(signIn.currentUser, 'answers the signed-in user'),
    ...named(signIn.updateUser, 'updates the signed-in user'),
    ...named(signIn.logOut, 'logs out (the token it carries is refused from then on)'),
    ...named(signIn.refresh, 'trades a refresh token, once, for a new session'),
  ];
  const issuers = [signIn.signUp, signIn.logIn].flatMap((operation) => (operation === undefined ? [] : [operation]));
  const lifetimes = [...new Set(issuers.map((operation) => tokenLifetime ?? declaredLifetime(operation)))];
  const lasting = lifetimes.every((seconds) => seconds === undefined)
    ? ''
    : `; they expire after ${lifetimes.map((seconds) => (seconds === undefined ? 'never' : `${seconds} s`)).join(' or ')}${tokenLifetime === undefined ? " (the answer's expires_in)" : ' (--token-lifetime)'}`;
  return [
    `sign-in: ${steps.join('; ')}`,
    ...(signIn.addsToken
      ? [`sign-in: the answer declares no token: it is added as ${addedAt(signIn.signUp ?? signIn.logIn)} (a required password is answered as "")`]
      : []),
    `tokens: the ones a sign-up or log-in issued${configuredTokens > 0 ? ` and ${configuredTokens} configured` : ''}; other bearer tokens are refused${lasting}`,
  ];
}

/** What each sign-in operation does, for the banner's operations table (they are not mocked, whatever their resource role). */
export function signInKinds({ signIn }: ResourceModel): ReadonlyMap<Operation, string> {
  const kinds = new Map<Operation, string>();
  if (signIn === undefined) return kinds;
  const entries: [Operation | undefined, string][] = [
    [signIn.signUp, 'sign-in: signs up'],
    [signIn.logIn, 'sign-in: logs in'],
    [signIn.currentUser, 'sign-in: the signed-in user'],
    [signIn.updateUser, 'sign-in: updates the signed-in user'],
    [signIn.logOut, 'sign-in: logs out'],
    [signIn.refresh, 'sign-in: renews a session'],
  ];
  for (const [operation, kind] of entries) if (operation !== undefined) kinds.set(operation, kind);
  return kinds;
}

/** Where the token is added to an answer that declares none: user.token. */
function addedAt(operation: Operation | undefined): string {
  return (operation === undefined ? undefined : tokenPath(jsonSuccessSchema(operation), true))?.join('.') ?? 'token';
}
