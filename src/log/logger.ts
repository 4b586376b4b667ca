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
    error: (message) => error?.(`error: ${message}`),
    warn: (message) => warn?.(`warning: ${message}`),
    info: (message) => info?.(message),
    debug: (message) => debug?.(message),
    request: ({ method, path, status, durationMs }) => info?.(`${new Date().toISOString()} ${method} ${path} ${status} ${durationMs.toFixed(2)}ms`),
  };
}
