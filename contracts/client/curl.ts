/**
 * A ready shell command that replays a request byte for byte with curl, for findings and
 * regression notes. Plain text is single-quoted; a body that single quotes cannot carry
 * (NUL, control or non-ASCII bytes, or a leading "@" that curl would read as a file name)
 * is piped in from printf with octal escapes, which every POSIX shell understands.
 */
import type { SentRequest } from '../report.js';

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
  const args = ['curl', '-sS', '-i', '-X', shellQuote(request.method), shellQuote(request.url)];
  let hasContentType = false;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') hasContentType = true;
    // "Name:" with nothing after it makes curl drop the header; "Name;" sends it empty.
    args.push('-H', shellQuoteKeepingToken(value === '' ? `${name};` : `${name}: ${value}`));
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

/** As shellQuote, but TOKEN_VARIABLE stays outside the quotes, double-quoted, so the shell expands it. */
function shellQuoteKeepingToken(text: string): string {
  if (!text.includes(TOKEN_VARIABLE)) return shellQuote(text);
  return text
    .split(TOKEN_VARIABLE)
    .map((part) => (part === '' ? '' : shellQuote(part)))
    .join(`"${TOKEN_VARIABLE}"`);
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
