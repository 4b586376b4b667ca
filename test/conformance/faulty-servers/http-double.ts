/** What the faulty servers share of node:http: a server on a free local port, reading a request's body, writing a JSON answer. */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on a free 127.0.0.1 port. close() cuts open connections, so a server that hangs a request still closes at once. */
export async function listenLocally(onRequest: RequestListener): Promise<LocalServer> {
  const server = createServer(onRequest);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Reads the whole body, then calls `then` with it, or with undefined when it is larger than
 * `maxBytes` (read to its end, not kept). A client that gives up mid-request never takes the process down.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number, then: (body: Buffer | undefined) => void): void {
  req.on('error', () => req.socket.destroy());
  res.on('error', () => req.socket.destroy());
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  });
  req.on('end', () => then(size > maxBytes ? undefined : Buffer.concat(chunks)));
}

/** What a faulty server's handler answers: a status and, unless it has none, a body written as JSON. */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  /** Headers besides Content-Length, by lower-case name (Content-Type: application/json unless given). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Writes `answer()` as JSON, a bigint as its digits (an int64 beyond 2^53 said back exactly); a
 * handler that throws is a 500 naming the error, so a double's own bug shows in the finding.
 */
export function respond(res: ServerResponse, answer: () => Answer): void {
  let given: Answer;
  try {
    given = answer();
  } catch (error) {
    given = { status: 500, body: { error: 500, message: String(error) } };
  }
  if (given.body === undefined) {
    res.writeHead(given.status, given.headers);
    res.end();
    return;
  }
  // A bigint goes in as a string marked with a nonce, which no string of the answer can hold, then loses its quotes.
  const nonce = randomBytes(6).toString('hex');
  const text = JSON.stringify(given.body, (_key, value: unknown) => (typeof value === 'bigint' ? `${nonce}:${value}` : value)).replace(
    new RegExp(`"${nonce}:(-?\\d+)"`, 'g'),
    '$1',
  );
  res.writeHead(given.status, { 'content-type': 'application/json', ...given.headers, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A double whose handler reads the request's path and its body as text (at most 1 MiB; a longer one is answered `tooLarge`). */
export function listenWithBodies(handle: (req: IncomingMessage, path: string, body: string) => Answer, tooLarge: () => Answer): Promise<LocalServer> {
  return listenLocally((req, res) =>
    readBody(req, res, 1_048_576, (body) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      respond(res, () => (body === undefined ? tooLarge() : handle(req, url.pathname, body.toString('utf8'))));
    }),
  );
}
