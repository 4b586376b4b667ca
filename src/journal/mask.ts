import { registeredScheme, type CredentialNames } from '../auth/credential-names.js';
import { MASK } from '../core/resources/secret-members.js';

export { maskBody } from '../core/resources/secret-members.js';

export { MASK };

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
