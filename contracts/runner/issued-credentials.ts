/**
 * Operations that issue a credential, read from the document: open (no security of their own), a
 * password-like property in the request body, a token-like property in the success answer (through
 * envelopes such as {"user": {...}}). Of two, the one whose request asks for more is the sign-up
 * and the other the log-in. What their answers depend on is state the schema cannot show (was this
 * user signed up? is this email taken?), so the run keeps what it saw: the values each accepted,
 * to tell "taken" from "refused" (see explainRefusal).
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess, jsonRequestBody } from '../../src/core/openapi/operation.js';
import { securityOf } from '../../src/core/openapi/security.js';
import { objectShape } from '../../src/core/schema/properties.js';
import { typeOf } from '../../src/core/schema/types.js';
import { isJsonObject, type JsonValue } from '../generators/json-value.js';

/** How deep a body is read for credentials: an envelope or two. */
const MAX_DEPTH = 3;
const PASSWORD = /passw(or)?d|^pass$|^secret$/i;
const TOKEN = /^(token|jwt|access_?token|auth_?token|id_?token|session_?token)$/i;

export type CredentialRole = 'sign-up' | 'log-in';

/** The leaf property names of an object schema, through nested objects (envelopes), with their schemas. */
function leaves(schema: unknown, depth = 0): Array<[string, Readonly<Record<string, unknown>>]> {
  if (depth > MAX_DEPTH) return [];
  return [...objectShape(schema).properties].flatMap(([name, inner]): Array<[string, Readonly<Record<string, unknown>>]> =>
    typeOf(inner) === 'object' ? leaves(inner, depth + 1) : [[name, inner]],
  );
}

/** Whether the operation issues a credential (see the module's comment). */
export function issuesCredential(operation: Operation): boolean {
  if (!securityOf(operation).open) return false;
  const body = jsonRequestBody(operation);
  if (body === undefined || !leaves(body.schema).some(([name, schema]) => PASSWORD.test(name) || schema.format === 'password')) return false;
  return operation.responses.some(
    (response) => isSuccess(Number(response.code)) && (response.contents ?? []).some((content) => leaves(content.schema).some(([name]) => TOKEN.test(name))),
  );
}

/**
 * The issuers' roles: of two whose requests ask for names one within the other, the larger signs up
 * and the smaller logs in; a lone issuer signs up when it declares 201 (it makes something), else logs in.
 */
export function credentialRoles(operations: readonly Operation[]): Map<Operation, CredentialRole> {
  const issuers = operations.filter(issuesCredential);
  const names = new Map(issuers.map((operation) => [operation, new Set(leaves(jsonRequestBody(operation)?.schema).map(([name]) => name))]));
  const roles = new Map<Operation, CredentialRole>();
  for (const operation of issuers) {
    const own = names.get(operation) as Set<string>;
    const within = (other: Operation): boolean => {
      const theirs = names.get(other) as Set<string>;
      return other !== operation && [...theirs].every((name) => own.has(name)) && theirs.size < own.size;
    };
    const coveredBy = (other: Operation): boolean => {
      const theirs = names.get(other) as Set<string>;
      return other !== operation && [...own].every((name) => theirs.has(name)) && own.size < theirs.size;
    };
    if (issuers.some(coveredBy)) roles.set(operation, 'log-in');
    else if (issuers.some(within) || operation.responses.some((response) => response.code === '201')) roles.set(operation, 'sign-up');
    else roles.set(operation, 'log-in');
  }
  return roles;
}

/** The token-like string an answer carries (through envelopes), or undefined. */
export function tokenIn(value: JsonValue, depth = 0): string | undefined {
  if (!isJsonObject(value) || depth > MAX_DEPTH) return undefined;
  for (const [name, inner] of Object.entries(value)) {
    if (TOKEN.test(name) && typeof inner === 'string' && inner !== '') return inner;
    const nested = tokenIn(inner as JsonValue, depth + 1);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/** Every string leaf of a body with its path ("user.email"), what a taken value is looked up by. */
export function stringLeaves(value: JsonValue | undefined, at = '', depth = 0): Array<[string, string]> {
  if (!isJsonObject(value) || depth > MAX_DEPTH) return [];
  return Object.entries(value).flatMap(([name, inner]): Array<[string, string]> => {
    const path = at === '' ? name : `${at}.${name}`;
    if (typeof inner === 'string') return PASSWORD.test(name) ? [] : [[path, inner]];
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
 * Why a refusal of a valid request to an issuer is expected, or undefined: a log-in with credentials
 * this run never signed up, or a sign-up giving a value (an email) this run already had accepted.
 */
export function explainRefusal(operation: Operation, payload: JsonValue | undefined): string | undefined {
  const state = seen.get(operation);
  if (state === undefined) return undefined;
  if (state.role === 'log-in') return 'a log-in with credentials this run never signed up';
  const taken = stringLeaves(payload).find(([path, value]) => state.accepted.get(path)?.has(value) === true);
  return taken === undefined ? undefined : `its ${taken[0]} ${JSON.stringify(taken[1])} was accepted earlier in this run (taken)`;
}
