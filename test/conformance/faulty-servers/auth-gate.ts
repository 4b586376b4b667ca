/**
 * Servers for one document's security scheme, made of `plantstore serve` (which takes any non-empty
 * credential) behind a gate that decides about credentials the way a real server would, or wrongly:
 *   - 'checks': refuses (401) unless the request carries exactly the expected credential;
 *   - 'ignores-wrong-key': lets any API key through (serve only asks for one to be there);
 *   - 'ignores-basic': serves requests without Basic credentials (adds some before passing them on).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startServer } from '../../../src/index.js';

export type GateMode = 'checks' | 'ignores-wrong-key' | 'ignores-basic';

/** Where the credential travels and what it must be. */
export type Expected =
  | { readonly kind: 'apiKey'; readonly in: 'query' | 'header' | 'cookie'; readonly name: string; readonly value: string }
  | { readonly kind: 'basic'; readonly user: string; readonly password: string };

export interface Gate {
  readonly url: string;
  close(): Promise<void>;
}

export async function startAuthGate(spec: object, expected: Expected, mode: GateMode): Promise<Gate> {
  const upstream = await startServer({ port: 0, spec, logLevel: 'silent' });
  const server = createServer((req, res) => {
    void pass(req, res, upstream.url, expected, mode).catch(() => {
      res.statusCode = 502;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await upstream.close();
    },
  };
}

function carried(req: IncomingMessage, expected: Expected): string | undefined {
  if (expected.kind === 'basic') {
    const header = req.headers.authorization ?? '';
    return /^basic /i.test(header) ? Buffer.from(header.slice(6).trim(), 'base64').toString('utf8') : undefined;
  }
  if (expected.in === 'query') return new URL(req.url ?? '/', 'http://gate').searchParams.get(expected.name) ?? undefined;
  if (expected.in === 'header') {
    const value = req.headers[expected.name.toLowerCase()];
    return typeof value === 'string' ? value : undefined;
  }
  const cookie = (req.headers.cookie ?? '').split(/;\s*/).find((pair) => pair.startsWith(`${expected.name}=`));
  return cookie?.slice(expected.name.length + 1);
}

async function pass(req: IncomingMessage, res: ServerResponse, upstream: string, expected: Expected, mode: GateMode): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const want = expected.kind === 'basic' ? `${expected.user}:${expected.password}` : expected.value;
  const got = carried(req, expected);
  const headers = { ...req.headers } as Record<string, string>;
  delete headers.host;
  delete headers.connection;
  const refuse = mode === 'checks' ? got !== want : mode === 'ignores-wrong-key' ? got === undefined || got === '' : false;
  if (refuse) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 401, message: 'unknown credentials' }));
    return;
  }
  if (mode === 'ignores-basic' && got === undefined) headers.authorization = `Basic ${Buffer.from('anyone:anything').toString('base64')}`;
  const answer = await request(`${upstream}${req.url ?? '/'}`, {
    method: (req.method ?? 'GET') as 'POST',
    headers,
    body: chunks.length === 0 ? null : Buffer.concat(chunks),
  });
  const text = await answer.body.arrayBuffer();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers))
    if (typeof value === 'string' && name !== 'transfer-encoding' && name !== 'connection') out[name] = value;
  res.writeHead(answer.statusCode, out);
  res.end(Buffer.from(text));
}
