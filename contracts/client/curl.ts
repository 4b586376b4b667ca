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

export function toCurl(request: Pick<SentRequest, 'method' | 'url' | 'headers' | 'body'>): string {
  const args = ['curl', '-sS', '-i', '-X', shellQuote(request.method), shellQuoteKeepingSecrets(urlWithVariables(request.url))];
  let hasContentType = false;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') hasContentType = true;
    // curl makes the Basic header from "user:password" itself, so the variable holds what the user knows.
    if (name.toLowerCase() === 'authorization' && value === 'Basic $BASIC_AUTH') {
      args.push('-u', '"$BASIC_AUTH"');
      continue;
    }
    // "Name:" with nothing after it makes curl drop the header; "Name;" sends it empty.
    args.push('-H', shellQuoteKeepingSecrets(value === '' ? `${name};` : `${name}: ${value}`));
  }
  // undici sends "content-length: 0" with a bodiless POST; an empty --data-binary makes curl do the same.
  if (request.body === undefined && /^(GET|HEAD|OPTIONS|TRACE)$/i.test(request.method)) return args.join(' ');
  const body = request.body ?? '';
  // Otherwise curl adds its own application/x-www-form-urlencoded, which this request did not send.
  if (!hasContentType) args.push('-H', shellQuote('Content-Type:'));
  const bytes = Buffer.from(body, 'utf8');
  if (isPlainText(bytes) && !body.startsWith('@')) {
    args.push('--data-binary', shellQuote(body));
    return args.join(' ');
  }
  args.push('--data-binary', '@-');
  return `printf '${printfEscape(bytes)}' | ${args.join(' ')}`;
}

/** A query's percent-encoded variable ("api_key=%24API_KEY") written as the shell variable it stands for. */
function urlWithVariables(url: string): string {
  return url.replace(/%24(?=(?:TOKEN|BASIC_AUTH|API_KEY|HEADER))/g, '$');
}

/** As shellQuote, but secret variables ("$TOKEN", "$API_KEY", …) stay outside the quotes, double-quoted, so the shell expands them. */
function shellQuoteKeepingSecrets(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(SECRET_VARIABLE)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(shellQuote(text.slice(last, index)));
    parts.push(`"${match[0]}"`);
    last = index + match[0].length;
  }
  if (parts.length === 0) return shellQuote(text);
  if (last < text.length) parts.push(shellQuote(text.slice(last)));
  return parts.join('');
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
