/**
 * A ready shell command that replays a request byte for byte with curl, for findings and
 * regression notes. Plain text is single-quoted; a body that single quotes cannot carry
 * (NUL, control or non-ASCII bytes, or a leading "@" that curl would read as a file name)
 * is piped in from printf with octal escapes, which every POSIX shell understands.
 */
import type { SentRequest } from '../report.js';
import { SECRET_VARIABLE } from './secrets.js';

/**
 * What a report writes in place of the run's token (`--token`): the shell variable the replay
 * command reads too (`--token "$TOKEN"`), so no report, console line or emitted file holds the secret.
 */
export const TOKEN_VARIABLE = '$TOKEN';

/**
 * The request with the run's token replaced by TOKEN_VARIABLE where it is the credential: a header
 * whose whole value is the token, or `Bearer <token>`. Whole values only: a short token ("t") must
 * not be found inside other headers' text.
 */
export function withoutToken<T extends Pick<SentRequest, 'headers'>>(request: T, token: string | undefined): T {
  if (token === undefined || token === '') return request;
  const bearer = `bearer ${token}`;
  let changed = false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const hidden =
      value === token
        ? TOKEN_VARIABLE
        : value.toLowerCase() === bearer.toLowerCase() && value.endsWith(token)
          ? `${value.slice(0, value.length - token.length)}${TOKEN_VARIABLE}`
          : value;
    changed ||= hidden !== value;
    headers[name] = hidden;
  }
  return changed ? { ...request, headers } : request;
}

export interface CurlOptions {
  /**
   * Text in the URL or body that stands for a shell variable, e.g. {"{{ID1}}" → "ID1"}: written as
   * "$ID1" outside the quotes, so the shell fills in what an earlier step set it to.
   */
  readonly variables?: ReadonlyMap<string, string>;
  /** Leave out -i (the status line and headers): the answer's body alone, for a step whose answer is read into a variable. */
  readonly bodyOnly?: boolean;
}

export function toCurl(request: Pick<SentRequest, 'method' | 'url' | 'headers' | 'body'>, options: CurlOptions = {}): string {
  const variables = options.variables ?? new Map<string, string>();
  const args = ['curl', '-sS', ...(options.bodyOnly === true ? [] : ['-i']), '-X', shellQuote(request.method)];
  args.push(quoteWithVariables(urlWithVariables(request.url), variables));
  let hasContentType = false;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') hasContentType = true;
    // curl makes the Basic header from "user:password" itself, so the variable holds what the user knows.
    if (name.toLowerCase() === 'authorization' && value === 'Basic $BASIC_AUTH') {
      args.push('-u', '"$BASIC_AUTH"');
      continue;
    }
    // "Name:" with nothing after it makes curl drop the header; "Name;" sends it empty.
    args.push('-H', quoteWithVariables(value === '' ? `${name};` : `${name}: ${value}`, new Map()));
  }
  // undici sends "content-length: 0" with a bodiless POST; an empty --data-binary makes curl do the same.
  if (request.body === undefined && /^(GET|HEAD|OPTIONS|TRACE)$/i.test(request.method)) return args.join(' ');
  const body = request.body ?? '';
  // Otherwise curl adds its own application/x-www-form-urlencoded, which this request did not send.
  if (!hasContentType) args.push('-H', shellQuote('Content-Type:'));
  const parts = split(body, variables, false);
  if (isPlainText(Buffer.from(body, 'utf8')) && !body.startsWith('@')) {
    args.push('--data-binary', quoteParts(parts));
    return args.join(' ');
  }
  args.push('--data-binary', '@-');
  // A variable goes in as a printf argument ("%s"), so what it holds is never read as a format.
  const format = parts.map((part) => (typeof part === 'string' ? printfEscape(Buffer.from(part, 'utf8')) : '%s')).join('');
  const values = parts.filter((part) => typeof part !== 'string').map((part) => ` "$${part.variable}"`);
  return `printf '${format}'${values.join('')} | ${args.join(' ')}`;
}

/** A query's percent-encoded variable ("api_key=%24API_KEY") written as the shell variable it stands for. */
function urlWithVariables(url: string): string {
  return url.replace(/%24(?=(?:TOKEN|BASIC_AUTH|API_KEY|HEADER))/g, '$');
}

/** Text as literal pieces and the shell variables within it: `variables`' texts, and with `secrets`, "$TOKEN", "$API_KEY", …. */
function split(text: string, variables: ReadonlyMap<string, string>, secrets: boolean): Array<string | { readonly variable: string }> {
  const alternatives = [...(secrets ? [SECRET_VARIABLE.source] : []), ...[...variables.keys()].map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))];
  if (alternatives.length === 0) return [text];
  const parts: Array<string | { readonly variable: string }> = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(alternatives.map((a) => `(?:${a})`).join('|'), 'g'))) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    parts.push({ variable: variables.get(match[0]) ?? match[0].slice(1) });
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Each literal piece shell-quoted, each variable double-quoted outside them ('a'"$ID1"'b'), so the shell expands it. */
function quoteParts(parts: ReadonlyArray<string | { readonly variable: string }>): string {
  if (parts.length === 0) return "''";
  return parts.map((part) => (typeof part === 'string' ? shellQuote(part) : `"$${part.variable}"`)).join('');
}

/** As shellQuote, but secret variables ("$TOKEN", "$API_KEY", …) and `variables` stay outside the quotes, double-quoted. */
function quoteWithVariables(text: string, variables: ReadonlyMap<string, string>): string {
  return quoteParts(split(text, variables, true));
}

/** Single-quotes printable ASCII; anything else becomes bash ANSI-C quoting ($'...') over its UTF-8 bytes. */
export function shellQuote(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (isPlainText(bytes)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let quoted = "$'";
  for (const byte of bytes) {
    if (byte === 0x27 || byte === 0x5c) quoted += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) quoted += String.fromCharCode(byte);
    else quoted += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${quoted}'`;
}

function isPlainText(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte < 0x20 || byte >= 0x7f) return false;
  return true;
}

/** A printf format that prints exactly `bytes`: octal escapes for all but plain characters. */
function printfEscape(bytes: Uint8Array): string {
  let format = '';
  for (const byte of bytes) {
    const plain = byte >= 0x20 && byte < 0x7f && byte !== 0x25 /* % */ && byte !== 0x5c /* \ */ && byte !== 0x27; /* ' */
    format += plain ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return format;
}
