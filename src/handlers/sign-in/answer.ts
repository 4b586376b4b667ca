/**
 * The answers of a sign-in: the user as the operation's success schema declares it, with the
 * issued token where that schema puts one (`token`, or `user.token` through an envelope; added
 * there when the document's answers declare none: SignIn.addsToken) and no password, ever: a
 * password-like property is left out, or answered as "" where the schema requires it (RealWorld's
 * published `User`), a value that reveals nothing.
 */
import type { IHttpOperation } from '@stoplight/types';
import { readAnswerJson, type JsonValue } from '../../core/json/exact-json.js';
import { isPasswordProperty, refreshTokenPath, tokenPath } from '../../core/resources/sign-in.js';
import { expiresInPath } from '../../core/resources/sessions.js';
import { objectShape } from '../../core/schema/properties.js';
import type { ItemFields } from '../../store/item-store.js';
import type { Outcome } from '../../http/answer.js';
import { compileFill } from '../resource/fill.js';
import { answer, successAnswer } from '../resource/parts.js';
import { compileItemWriter, jsonText } from '../resource/shape.js';
import { isRecord } from './users.js';

/** How deep an answer is cleaned of passwords: as deep as the core reads envelopes. */
const MAX_DEPTH = 3;

/** What a sign-in gives: the bearer, and a refresh token where the answer declares one. */
export interface Session {
  readonly token: string;
  readonly refresh?: string | undefined;
}

/** Writes the user (and the session, when there is one to give, with its lifetime in seconds where the answer declares `expires_in`) as the operation answers it. */
export type UserAnswer = (fields: ItemFields, session: Session | undefined, expiresIn?: number) => Outcome;

export function compileUserAnswer(operation: IHttpOperation, preferred: readonly number[], addsToken = false): UserAnswer {
  const success = successAnswer(operation, preferred);
  if (success.schema === undefined) return () => answer(success.status, success.headers, '');
  const path = tokenPath(success.schema, addsToken) ?? [];
  // The envelopes around the user: the token's path but its last name; none when no token is answered.
  const envelopes = path.slice(0, -1);
  const tokenName = path.at(-1);
  let inner: unknown = success.schema;
  for (const name of envelopes) inner = objectShape(inner).properties.get(name);
  const fill = compileFill(inner);
  const write = compileItemWriter(inner);
  const masks = requiredPasswords(inner);
  const added = tokenName !== undefined && !objectShape(inner).properties.has(tokenName);
  // The lifetime is answered beside the token (`{"token", "expires_in"}`), where the schema declares it.
  const expires = expiresInPath(inner);
  const expiresName = expires?.length === 1 ? expires[0] : undefined;
  // The refresh token beside the bearer, where the schema declares it there.
  const refreshed = refreshTokenPath(inner);
  const refreshName = refreshed?.length === 1 ? refreshed[0] : undefined;
  return (fields, session, expiresIn) => {
    const token = session?.token;
    const shown = { ...Object.fromEntries(Object.entries(fields).filter(([name]) => !isPasswordProperty(name))), ...masks };
    const lasting = expiresName !== undefined && expiresIn !== undefined && token !== undefined ? { ...shown, [expiresName]: expiresIn } : shown;
    const renewable = refreshName !== undefined && session?.refresh !== undefined ? { ...lasting, [refreshName]: session.refresh } : lasting;
    const withToken = tokenName !== undefined && token !== undefined ? { ...renewable, [tokenName]: token } : renewable;
    let text = write(fill(withToken));
    // A token the schema does not declare (addsToken) is added after the writer, which keeps only declared properties.
    if (added && token !== undefined) text = `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(tokenName)}:${JSON.stringify(token)}}`;
    for (const name of [...envelopes].reverse()) text = `{${JSON.stringify(name)}:${text}}`;
    return answer(success.status, success.headers, text);
  };
}

/**
 * A stored create's answer (the sign-up is a resource's create) with the issued token put where
 * the schema says and any password left out; the answer as it was when it is no JSON object.
 */
export function withIssuedToken(body: string, path: readonly string[] | undefined, session: Session, schema?: unknown, expiresIn?: number): string {
  const read = readAnswerJson(body);
  if (!read.ok || !isRecord(read.value)) return body;
  const cleaned = withoutPasswords(read.value) as Record<string, JsonValue>;
  if (path === undefined || path.length === 0) return jsonText({ ...cleaned, ...requiredPasswords(schema) });
  let at: Record<string, JsonValue> = cleaned;
  let inner = schema;
  for (const name of path.slice(0, -1)) {
    const next = at[name];
    if (!isRecord(next)) return jsonText(cleaned);
    at = next as Record<string, JsonValue>;
    inner = objectShape(inner).properties.get(name);
  }
  Object.assign(at, requiredPasswords(inner));
  at[path.at(-1) as string] = session.token;
  const refreshed = refreshTokenPath(inner);
  if (refreshed?.length === 1 && session.refresh !== undefined) at[refreshed[0] as string] = session.refresh;
  const expires = expiresInPath(inner);
  if (expires?.length === 1 && expiresIn !== undefined) at[expires[0] as string] = expiresIn;
  return jsonText(cleaned);
}

/** The password-like properties an object schema requires, each answered as "": it must be there, and must reveal nothing. */
function requiredPasswords(schema: unknown): Record<string, string> {
  const shape = objectShape(schema);
  return Object.fromEntries(
    [...shape.required]
      .filter((name) => isPasswordProperty(name, shape.properties.get(name) as Readonly<Record<string, unknown>> | undefined))
      .map((name) => [name, '']),
  );
}

function withoutPasswords(value: JsonValue, depth = 0): JsonValue {
  if (!isRecord(value) || depth > MAX_DEPTH) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, inner]) => !(typeof inner === 'string' && isPasswordProperty(name)))
      .map(([name, inner]) => [name, withoutPasswords(inner, depth + 1)]),
  );
}
