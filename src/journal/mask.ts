import { registeredScheme, type CredentialNames } from '../auth/credential-names.js';
import { isSecretProperty } from '../core/resources/sign-in.js';

/** What stands for a credential: the kind stays visible (the header, parameter or scheme name), the value never. */
export const MASK = '***';

type HeaderValue = string | number | string[] | undefined;

/** Headers as text, credentials masked. Runs when the journal is read, never on the request path. */
export function maskHeaders(headers: Readonly<Record<string, HeaderValue>>, names: CredentialNames): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    masked[name] = maskHeader(name.toLowerCase(), value, names);
  }
  return masked;
}

function maskHeader(name: string, value: string | number | string[], names: CredentialNames): string {
  const values = Array.isArray(value) ? value : [String(value)];
  switch (name) {
    case 'authorization':
    case 'proxy-authorization':
      return values.map(maskAuthorization).join(', ');
    case 'cookie':
      return values.map(maskCookie).join('; ');
    case 'set-cookie':
      return values.map(maskSetCookie).join(', ');
    default:
      return names.headers.has(name) ? MASK : values.join(', ');
  }
}

/** `Bearer abc` → `Bearer ***`; a first word that is no registered scheme may be the token, so all of it goes. */
export function maskAuthorization(value: string): string {
  const word = /^\s*([^\s,]+)\s/.exec(value)?.[1];
  const scheme = word === undefined ? undefined : registeredScheme(word);
  return scheme === undefined ? MASK : `${scheme} ${MASK}`;
}

/** Every cookie's value: session cookies have any name, so none is shown. `a=1; b=2` → `a=***; b=***`. */
function maskCookie(value: string): string {
  return value
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? MASK : `${pair.slice(0, equals)}=${MASK}`;
    })
    .join('; ');
}

/** `sid=abc; Path=/; HttpOnly` → `sid=***; Path=/; HttpOnly`: the attributes are no secret. */
function maskSetCookie(value: string): string {
  const end = value.indexOf(';');
  const pair = end === -1 ? value : value.slice(0, end);
  return `${maskCookie(pair)}${end === -1 ? '' : value.slice(end)}`;
}

/** A query string with credential parameters' values masked, everything else as sent. */
export function maskQuery(query: string, names: CredentialNames): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const rawName = equals === -1 ? part : part.slice(0, equals);
      return names.query.has(decodedName(rawName).toLowerCase()) ? `${rawName}=${MASK}` : part;
    })
    .join('&');
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** What every secret name has in it: a body without it is left as it is, unscanned. */
const SECRET_HINT = /pass|secret|token|jwt/i;

/** A JSON member `"name": "value"`, or one cut short at the end of a body the journal kept only the start of. */
const STRING_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)/g;

/**
 * A body with the value of every password- and token-like member masked (a sign-up's password, a
 * log-in's token): the names the sign-in reading calls secrets. Text, not parsed JSON, so a body
 * the journal cut short is masked too.
 */
export function maskBody(text: string): string {
  if (!SECRET_HINT.test(text)) return text;
  return text.replace(STRING_MEMBER, (member, name: string, colon: string) => (isSecretProperty(name) ? `"${name}"${colon}"${MASK}"` : member));
}
