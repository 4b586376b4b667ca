/**
 * A node:http server standing for the real implementation in the proxy tests: it records what it
 * received (the body as bytes) and answers `reply`, whose body may be text or bytes.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { ServerOptions } from '../../src/index.js';
import { serverFor } from '../support/server.js';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface UpstreamReply {
  readonly status: number;
  readonly type: string;
  readonly body: string | Buffer;
  /** Sent besides content-type and x-upstream. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Upstream {
  readonly url: () => string;
  readonly received: Received[];
  reply: UpstreamReply;
}

/** Starts before the enclosing tests and closes after them. */
export function upstreamFor(initial: UpstreamReply = { status: 200, type: 'application/json', body: '{"name":"x","tag":null}' }): Upstream {
  const received: Received[] = [];
  const state = { reply: initial };
  let server: Server | undefined;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
        const { status, type, body, headers = {} } = state.reply;
        response.writeHead(status, { 'content-type': type, 'x-upstream': 'yes', ...headers });
        response.end(body);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    url: () => `http://127.0.0.1:${(server?.address() as AddressInfo).port}`,
    received,
    get reply() {
      return state.reply;
    },
    set reply(value) {
      state.reply = value;
    },
  };
}

/** A stand-in proxying to `upstream`, whose URL is known only once it listens (the server reads it as it starts). */
export function proxyingServerFor(upstream: Upstream, options: ServerOptions = {}): ReturnType<typeof serverFor> {
  return serverFor({
    ...options,
    get proxy() {
      return upstream.url();
    },
  });
}
