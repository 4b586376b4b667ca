/**
 * The credentials a run is given (--token, --auth, --header and their CONTRACT_* variables), read
 * against the document's security schemes into what cases carry ("$TOKEN"-style variables) and
 * what only the HTTP client knows (the secrets themselves). See contracts/client/secrets.ts.
 *
 *   --auth bearer:<token>               (= --token; also for oauth2 / openIdConnect schemes)
 *   --auth basic:<user>:<password>
 *   --auth apikey:<scheme>=<key>        <scheme>: its name in components.securitySchemes, or the
 *                                       header / query / cookie name it is sent under
 */
import { securityOf } from '../../src/core/openapi/security.js';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { placeholder, variableName, type Secret } from '../client/secrets.js';
import type { GivenCredentials } from '../generators/request-cases/types.js';
import { SetupError } from './setup.js';

/** What the user gave, as given (secret values included). */
export interface AuthInput {
  readonly token?: string | undefined;
  /** --auth forms. */
  readonly auth?: readonly string[] | undefined;
  /** --header 'Name: value' lines. */
  readonly header?: readonly string[] | undefined;
}

/** A run's credentials, split into what cases carry and what only the client may know. */
export interface RunCredentials {
  /** The bearer token cases carry: "$TOKEN" when one was given, else undefined (the fixed test token). */
  readonly token: string | undefined;
  readonly given: GivenCredentials;
  /** Headers sent on every request (credential values as variables), names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly secrets: readonly Secret[];
  /** The flags that give these credentials again, secrets as variables: `--auth "basic:$BASIC_AUTH"` (replay commands). */
  readonly replayFlags: readonly string[];
}

/** Header names whose values are credentials, whatever the document says. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-auth-token']);

/** A header name that looks like it carries a credential. */
function looksSecret(name: string, apiKeyHeaders: ReadonlySet<string>): boolean {
  return CREDENTIAL_HEADERS.has(name) || apiKeyHeaders.has(name) || /token|secret|passw|api-?key|session|auth/i.test(name);
}

interface Parsed {
  bearer?: string;
  basic?: { readonly user: string; readonly password: string };
  readonly apiKeys: Map<string, string>;
}

/** The --auth forms; a malformed one is a usage error that says the forms (without echoing a secret). */
export function parseAuthForms(forms: readonly string[]): Parsed {
  const parsed: Parsed = { apiKeys: new Map() };
  for (const form of forms) {
    const colon = form.indexOf(':');
    const kind = colon < 0 ? '' : form.slice(0, colon).toLowerCase();
    const rest = colon < 0 ? '' : form.slice(colon + 1);
    if ((kind === 'bearer' || kind === 'oauth2' || kind === 'openidconnect') && rest !== '') parsed.bearer = rest;
    else if (kind === 'basic' && rest.includes(':')) {
      const at = rest.indexOf(':');
      parsed.basic = { user: rest.slice(0, at), password: rest.slice(at + 1) };
    } else if (kind === 'apikey' && /^[^=]+=./.test(rest)) {
      const at = rest.indexOf('=');
      parsed.apiKeys.set(rest.slice(0, at), rest.slice(at + 1));
    } else {
      throw new SetupError(
        `--auth takes bearer:<token>, basic:<user>:<password> or apikey:<scheme>=<key>, not "${kind === '' ? form.slice(0, 12) : `${kind}:…`}"`,
      );
    }
  }
  return parsed;
}

/** The "Name: value" of a --header; a malformed one is a usage error. */
export function parseHeader(line: string): readonly [string, string] {
  const colon = line.indexOf(':');
  const name = colon < 0 ? '' : line.slice(0, colon).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new SetupError(`--header takes 'Name: value', not "${line.slice(0, 20)}"`);
  return [name.toLowerCase(), line.slice(colon + 1).trim()];
}

/** The run's credentials for the document's operations. */
export function runCredentials(input: AuthInput, operations: readonly Operation[]): RunCredentials {
  const parsed = parseAuthForms(input.auth ?? []);
  const secrets: Secret[] = [];
  const token = parsed.bearer ?? (input.token === '' ? undefined : input.token);
  if (token !== undefined) secrets.push({ variable: 'TOKEN', value: token });

  const replayFlags: string[] = [];
  let basic: string | undefined;
  if (parsed.basic !== undefined) {
    replayFlags.push('--auth "basic:$BASIC_AUTH"');
    secrets.push({ variable: 'BASIC_AUTH', value: Buffer.from(`${parsed.basic.user}:${parsed.basic.password}`).toString('base64') });
    basic = placeholder('BASIC_AUTH');
  }

  // Every API key scheme of the document once, by its key; one alone is "$API_KEY".
  const schemes = new Map<string, { key: string; name: string; in: string; prefix: string | undefined }>();
  for (const operation of operations) {
    for (const scheme of securityOf(operation).alternatives.flat()) {
      if (scheme.type === 'apiKey')
        schemes.set(scheme.key ?? scheme.name, { key: scheme.key ?? scheme.name, name: scheme.name, in: scheme.in, prefix: scheme.prefix });
    }
  }
  const apiKeys: Record<string, string> = {};
  for (const [given, value] of parsed.apiKeys) {
    const scheme = [...schemes.values()].find(
      (s) => (given === '*' && schemes.size === 1) || s.key === given || s.name === given || variableName(s.key) === given || variableName(s.name) === given,
    );
    if (scheme === undefined) {
      if (given === '*') continue;
      const known = [...schemes.values()].map((s) => `${s.key} (${s.in} ${s.name})`).join(', ') || 'none';
      throw new SetupError(`--auth apikey:${given}=…: the document declares no such API key scheme (its API key schemes: ${known})`);
    }
    const variable = schemes.size === 1 ? 'API_KEY' : `API_KEY_${variableName(scheme.key)}`;
    // The key alone: cases put the scheme's prefix ("Token ") before it, so one given with it loses it here.
    const prefix = scheme.prefix?.trimEnd().toLowerCase();
    const words = value.trimStart().split(/\s+/);
    const key = prefix !== undefined && words.length > 1 && words[0]?.toLowerCase() === prefix ? value.trimStart().slice(words[0]?.length).trim() : value;
    secrets.push({ variable, value: key });
    apiKeys[scheme.key] = placeholder(variable);
    replayFlags.push(`--auth "apikey:${scheme.key}=$${variable}"`);
  }

  const apiKeyHeaders = new Set([...schemes.values()].filter((s) => s.in === 'header').map((s) => s.name.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const line of input.header ?? []) {
    const [name, value] = parseHeader(line);
    if (looksSecret(name, apiKeyHeaders) && value !== '') {
      const variable = `HEADER_${variableName(name)}`;
      secrets.push({ variable, value });
      headers[name] = placeholder(variable);
      replayFlags.push(`--header "${name}: $${variable}"`);
    } else {
      headers[name] = value;
      replayFlags.push(`--header '${`${name}: ${value}`.replace(/'/g, `'\\''`)}'`);
    }
  }
  return {
    token: token === undefined ? undefined : placeholder('TOKEN'),
    given: { ...(basic === undefined ? {} : { basic }), apiKeys, headers: Object.keys(headers) },
    headers,
    secrets,
    replayFlags,
  };
}

/** The query parameters a request carries credentials in (API keys in the query, Gitea's `?token=`), for an operation's security. */
export function credentialQueryNames(operation: Operation): Set<string> {
  const names = new Set<string>();
  for (const scheme of securityOf(operation).alternatives.flat()) if (scheme.type === 'apiKey' && scheme.in === 'query') names.add(scheme.name);
  return names;
}

/** `path` without the query parameters named in `names`; the others keep their bytes and order. */
export function withoutQueryParameters(path: string, names: ReadonlySet<string>): string {
  const at = path.indexOf('?');
  if (at < 0 || names.size === 0) return path;
  const kept = path
    .slice(at + 1)
    .split('&')
    .filter((pair) => !names.has(decodedName(pair)));
  return kept.length === 0 ? path.slice(0, at) : `${path.slice(0, at)}?${kept.join('&')}`;
}

function decodedName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The header names a request carries credentials in, for an operation's security (left off on purpose by the auth cases). */
export function credentialHeaderNames(operation: Operation): Set<string> {
  const names = new Set(['authorization', 'cookie']);
  for (const scheme of securityOf(operation).alternatives.flat()) if (scheme.type === 'apiKey' && scheme.in === 'header') names.add(scheme.name.toLowerCase());
  return names;
}
