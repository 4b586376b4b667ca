/**
 * Shared helpers of the server tests: start a server for a file (closed in afterAll), send
 * requests over real HTTP with undici, talk raw TCP for what undici will not send, and check
 * the document's Error body precisely.
 */
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { request } from 'undici';
import { flattenHeaders } from '../../src/core/http/headers.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.js';
import { storedPlants } from './plants.js';

/** Any non-empty bearer token is accepted when the server has no tokens configured. */
export const TOKEN = 'test-token';
export const AUTH: Readonly<Record<string, string>> = { authorization: `Bearer ${TOKEN}` };
export const JSON_TYPE: Readonly<Record<string, string>> = { 'content-type': 'application/json' };
export const VALID_HEADERS: Readonly<Record<string, string>> = { ...AUTH, ...JSON_TYPE };

/** A request's answer, read whole. Header names are lower case; repeated headers are joined. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

export interface Send {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer | AsyncIterable<Buffer>;
}

/** Every request has a deadline, so a server that hangs fails the test instead of stalling it. */
const CLIENT_TIMEOUT_MS = 10_000;

export async function send(url: string, { method = 'GET', headers = {}, body }: Send = {}): Promise<Reply> {
  const response = await request(url, {
    method: method as 'GET',
    headers: { ...headers },
    // An async iterable goes as a stream: chunked, with no Content-Length.
    body: body === undefined ? null : typeof body === 'string' || Buffer.isBuffer(body) ? body : Readable.from(body),
    headersTimeout: CLIENT_TIMEOUT_MS,
    bodyTimeout: CLIENT_TIMEOUT_MS,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: flattenHeaders(response.headers), text, json: parseJson(text) };
}

/**
 * POST /plants. An object body is sent as JSON.stringify of it (no bigints: write exact ids with
 * plantText); a string or Buffer is sent as it is. Headers default to a valid token and JSON.
 */
export function postPlant(
  baseUrl: string,
  body: object | string | Buffer | AsyncIterable<Buffer>,
  headers: Readonly<Record<string, string>> = VALID_HEADERS,
  path = '/plants',
): Promise<Reply> {
  const payload = typeof body === 'string' || Buffer.isBuffer(body) || isAsyncIterable(body) ? body : JSON.stringify(body);
  return send(`${baseUrl}${path}`, { method: 'POST', headers, body: payload });
}

/** A NewPlant as exact JSON text: the id is written as the digits given, never through a double. */
export function plantText(plant: { readonly name: string; readonly tag?: string; readonly id: bigint | number | string }): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"name":${JSON.stringify(plant.name)}${tag},"id":${String(plant.id)}}`;
}

/** Ids no other call in this module returns, from `start` up, so tests of one file never collide. */
export function idSequence(start: bigint): () => bigint {
  let next = start;
  return () => next++;
}

/** Starts a server before the file's (or describe block's) tests and closes it after them. */
export function serverFor(options: ServerOptions = {}): { readonly current: RunningServer } {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ port: 0, ...options });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get current(): RunningServer {
      if (!server) throw new Error('the server is not started yet (use it inside a test)');
      return server;
    },
  };
}

/**
 * Asserts the answer is the document's Error: this HTTP status, JSON content type, a body with
 * exactly `error` (this code) and a non-empty `message`. Returns the message for further checks.
 */
export function expectError(reply: Reply, status: number, code: number): string {
  expect({ status: reply.status, code: (reply.json as { error?: unknown } | undefined)?.error }, reply.text).toEqual({ status, code });
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.json).toEqual({ error: code, message: expect.any(String) });
  const message = (reply.json as { message: string }).message;
  expect(message.length).toBeGreaterThan(0);
  return message;
}

/** Asserts a 200 whose body is exactly the created Plant (name, tag when sent, never the id). */
export function expectCreated(reply: Reply, plant: { readonly name: string; readonly tag?: string }): void {
  expect(reply.status, reply.text).toBe(200);
  expect(reply.headers['content-type']).toBe('application/json');
  expect(reply.text).toBe(JSON.stringify(plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag }));
}

/** The server still answers a valid request with 200 (after something nasty was sent). */
export async function expectStillServing(server: RunningServer, id: bigint): Promise<void> {
  const reply = await postPlant(server.url, plantText({ name: 'still serving', id }));
  expectCreated(reply, { name: 'still serving' });
  expect((await (await storedPlants(server)).get(id))?.name).toBe('still serving');
}

export interface RawExchange {
  /** Everything the server wrote. */
  readonly text: string;
  /** The server closed the connection (rather than the deadline passing). */
  readonly closedByServer: boolean;
  readonly elapsedMs: number;
}

/**
 * Writes bytes on a raw TCP connection and collects what comes back until the server closes the
 * connection or `deadlineMs` passes (then the client closes it; closedByServer is false).
 */
export function rawExchange(port: number, data: string | Buffer, deadlineMs: number): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = true;
    const deadline = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, deadlineMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the server answered still counts as the server closing.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), closedByServer, elapsedMs: performance.now() - started });
    });
    socket.on('connect', () => socket.write(data));
  });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Reads one HTTP/1.1 response out of raw bytes (headers lower-cased). */
export function parseRawResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(match[1]), headers, body: text.slice(end + 4) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Buffer> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** Reads every HTTP/1.1 response out of raw bytes, in order, each body cut at its Content-Length. */
export function parseRawResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const { status, headers, body } = parseRawResponse(rest);
    const length = Number(headers['content-length'] ?? body.length);
    responses.push({ status, headers, body: body.slice(0, length) });
    rest = body.slice(length);
  }
  return responses;
}
