export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** text: one line a person reads; json: one JSON object per line, for log collectors. */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * One request, as logged: never its headers, body or query, so credentials cannot leak into logs.
 * A refusal carries its error (the table's code and the Error's message, which never quote a
 * credential); `details` (debug only) is what validation found, in full.
 */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  readonly operation?: string | undefined;
  readonly tenant?: string | undefined;
  readonly error?: { readonly code: string; readonly message: string } | undefined;
  readonly fault?: string | undefined;
  readonly details?: readonly string[] | undefined;
}

export interface Logger {
  readonly level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  request(entry: RequestLogEntry): void;
}

/**
 * Characters that would act on a terminal or fake a line (C0 and C1 controls, line and paragraph
 * separators, bidirectional overrides), in a path or any other text a user or a document wrote.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every unprintable character written as an escape (`\n`, `\x1b`, `\u202e`), on one line. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.charCodeAt(0);
    return SHORT_ESCAPES[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** A message's lines made printable; continuation lines (a stack) are indented, so none can pass for an event of its own. */
export function printableLines(message: string): string {
  return message.split('\n').map(printable).join('\n    ');
}

/** An info line keeps a refusal's message to this many characters; debug gives it whole. */
const MESSAGE_SHOWN = 300;

/** A line-per-event logger; `write` is where lines go (stdout for the CLI, anywhere for tests). */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`), format: LogFormat = 'text'): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (threshold: LogLevel) => (rank >= LOG_LEVELS.indexOf(threshold) ? write : undefined);
  const error = at('error');
  const warn = at('warn');
  const info = at('info');
  const debug = at('debug');
  if (format === 'json') {
    // JSON.stringify escapes every control character, so a value cannot fake a line.
    const line = (to: typeof write | undefined, levelName: LogLevel, message: string) =>
      to?.(JSON.stringify({ time: new Date().toISOString(), level: levelName, message }));
    return {
      level,
      error: (message) => line(error, 'error', message),
      warn: (message) => line(warn, 'warn', message),
      info: (message) => line(info, 'info', message),
      debug: (message) => line(debug, 'debug', message),
      request: (entry) => info?.(JSON.stringify(requestRecord(entry, debug !== undefined))),
    };
  }
  return {
    level,
    error: (message) => error?.(`error: ${printableLines(message)}`),
    warn: (message) => warn?.(`warning: ${printableLines(message)}`),
    info: (message) => info?.(printableLines(message)),
    debug: (message) => debug?.(printableLines(message)),
    request: (entry) => {
      info?.(requestLine(entry, debug !== undefined));
      if (debug) for (const detail of entry.details ?? []) debug(`  - ${printable(detail)}`);
    },
  };
}

function requestLine({ method, path, status, durationMs, error, fault }: RequestLogEntry, full: boolean): string {
  const why = error === undefined ? '' : ` ${error.code} ${printable(full ? error.message : shorten(error.message))}`;
  const faulted = fault === undefined ? '' : ` (fault: ${printable(fault)})`;
  return `${new Date().toISOString()} ${printable(method)} ${printable(path)} ${status} ${durationMs.toFixed(2)}ms${why}${faulted}`;
}

/** The JSON line's fields in a fixed order; absent ones left out. */
function requestRecord({ method, path, status, durationMs, operation, tenant, error, fault, details }: RequestLogEntry, full: boolean) {
  return {
    time: new Date().toISOString(),
    level: 'info',
    method,
    path,
    ...(operation !== undefined ? { operation } : {}),
    status,
    durationMs: Math.round(durationMs * 100) / 100,
    ...(tenant !== undefined ? { tenant } : {}),
    ...(error !== undefined ? { error: { code: error.code, message: full ? error.message : shorten(error.message) } } : {}),
    ...(fault !== undefined ? { fault } : {}),
    ...(full && details !== undefined ? { details } : {}),
  };
}

function shorten(message: string): string {
  return message.length <= MESSAGE_SHOWN ? message : `${message.slice(0, MESSAGE_SHOWN)}… (--log-level debug shows it whole)`;
}
