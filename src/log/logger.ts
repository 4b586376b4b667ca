export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One request, as logged: never its headers or body, so tokens cannot leak into logs. */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
}

export interface Logger {
  readonly level: LogLevel;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  request(entry: RequestLogEntry): void;
}

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
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

/** A line-per-event logger; `write` is where lines go (stdout for the CLI, anywhere for tests). */
export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (threshold: LogLevel) => (rank >= LOG_LEVELS.indexOf(threshold) ? write : undefined);
  const error = at('error');
  const warn = at('warn');
  const info = at('info');
  const debug = at('debug');
  return {
    level,
    error: (message) => error?.(`error: ${printableLines(message)}`),
    warn: (message) => warn?.(`warning: ${printableLines(message)}`),
    info: (message) => info?.(printableLines(message)),
    debug: (message) => debug?.(printableLines(message)),
    request: ({ method, path, status, durationMs }) =>
      info?.(`${new Date().toISOString()} ${printable(method)} ${printable(path)} ${status} ${durationMs.toFixed(2)}ms`),
  };
}
