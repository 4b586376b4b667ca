/**
 * Redis's MONITOR, read on a plain socket. ioredis's `monitor()` races: it enters monitoring mode
 * only a microtask after MONITOR's `+OK`, so a command line that arrives in the same chunk as the
 * `+OK` (any busy Redis, e.g. replicas polling) meets an empty command queue and ioredis throws
 * "Command queue state error" from its socket handler, an uncaught exception (redis/ioredis#1981,
 * taskforcesh/bullmq#2505; CI hit it in sessions.test.ts).
 */
import { Socket } from 'node:net';

/** One command as Redis ran it: its name (lower case) and arguments. */
export type Seen = readonly string[];

export interface Monitor {
  stop(): void;
}

/** Calls `onCommand` with each command Redis runs from when the promise resolves until `stop()`. */
export async function monitorRedis(url: string, onCommand: (command: Seen) => void): Promise<Monitor> {
  const { hostname, port } = new URL(url);
  const socket = new Socket();
  let buffered = '';
  let started: (() => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    started = resolve;
    socket.once('error', reject);
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\r\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (line === '+OK') started?.();
      else if (line.startsWith('+')) onCommand(commandOf(line));
    }
  });
  socket.connect(Number(port), hostname, () => socket.write('MONITOR\r\n'));
  await ready;
  socket.on('error', () => {});
  return { stop: () => socket.destroy() };
}

/** `+1700000000.123 [0 127.0.0.1:5000] "hget" "key" "field"`: the quoted words, unescaped as Redis escapes them (sdscatrepr). */
export function commandOf(line: string): Seen {
  const words: string[] = [];
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  for (const [, word] of line.slice(line.indexOf(']') + 1).matchAll(quoted)) words.push(unescape(word ?? ''));
  if (words[0] !== undefined) words[0] = words[0].toLowerCase();
  return words;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', '"': '"', '\\': '\\' };

function unescape(word: string): string {
  return word.replace(/\\(x[0-9a-f]{2}|.)/g, (_, code: string) =>
    code.startsWith('x') && code.length === 3 ? String.fromCharCode(parseInt(code.slice(1), 16)) : (ESCAPES[code] ?? code),
  );
}
