/**
 * A small stateful server of test/fixtures/documents/parts.yaml on node:http: parts keyed by a
 * client-assigned string (sku: 1 to 40 of [A-Za-z0-9_~-]). Correct by default (every request the
 * document allows is answered as declared, a taken sku is refused 409); able to misbehave in one
 * named way about its string keys. verify must pass the correct one with no failure and no warning,
 * and catch each fault.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonObject, JsonSyntaxError, parseExactJson } from './exact-json.js';
import { listenLocally, readBody, respond, type Answer, type LocalServer } from './http-double.js';

export const PARTS_FAULTS = {
  'digit-sku-refused': 'a part whose sku has a digit is refused as taken (409), though no part holds it',
  'taken-sku-accepted': 'a sku already held is accepted again (201), the new part replacing the old',
} as const satisfies Record<string, string>;

export type PartsFault = keyof typeof PARTS_FAULTS;

interface Part {
  readonly sku: string;
  readonly name: string;
}

const SKU = /^[A-Za-z0-9_~-]+$/u;
const MAX_SKU = 40;

/** The sku's rules as the document gives them: length in code points (all ASCII here), the pattern. */
function isSku(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && [...value].length <= MAX_SKU && SKU.test(value);
}

export function startPartsServer(fault?: PartsFault): Promise<LocalServer> {
  const handle = partsStore(fault);
  return listenLocally((req, res) => serve(req, res, handle));
}

function serve(req: IncomingMessage, res: ServerResponse, handle: (method: string, url: URL, contentType: string | undefined, body: string) => Answer): void {
  readBody(req, res, 1024 * 1024, (body) => {
    respond(res, () =>
      body === undefined
        ? { status: 413, body: { error: 413, message: 'body too large' } }
        : handle(req.method ?? 'GET', new URL(req.url ?? '/', 'http://localhost'), req.headers['content-type'], body.toString('utf8')),
    );
  });
}

/** The part a create body holds, or why it holds none. */
function readPart(body: string): Part | string {
  let value;
  try {
    value = parseExactJson(body);
  } catch (error) {
    return error instanceof JsonSyntaxError ? `not JSON: ${error.message}` : 'not JSON';
  }
  if (!isJsonObject(value)) return 'body must be an object';
  const fields = value as Map<string, unknown>;
  const sku = fields.get('sku');
  const name = fields.get('name');
  if (!isSku(sku)) return "body must have a property 'sku' of 1 to 40 of A-Z, a-z, 0-9, _, ~ and -";
  if (typeof name !== 'string') return "body must have a string property 'name'";
  return { sku, name };
}

function partsStore(fault: PartsFault | undefined): (method: string, url: URL, contentType: string | undefined, body: string) => Answer {
  const parts = new Map<string, Part>();
  const error = (status: number, message: string): Answer => ({ status, body: { error: status, message } });
  return (method, url, contentType, body) => {
    if (url.pathname === '/parts' && method === 'GET') {
      const limits = url.searchParams.getAll('limit');
      const text = limits[0];
      if (limits.length > 1 || (text !== undefined && !/^(100|[1-9]\d?)$/.test(text))) return error(400, 'limit must be an integer from 1 to 100');
      const all = [...parts.values()];
      return { status: 200, body: text === undefined ? all : all.slice(0, Number(text)) };
    }
    if (url.pathname === '/parts' && method === 'POST') {
      if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return error(400, 'content-type must be application/json');
      const part = readPart(body);
      if (typeof part === 'string') return error(400, part);
      const taken = parts.has(part.sku) && fault !== 'taken-sku-accepted';
      if (taken || (fault === 'digit-sku-refused' && /\d/.test(part.sku))) return error(409, `a part with sku ${JSON.stringify(part.sku)} already exists`);
      parts.set(part.sku, part);
      return { status: 201, body: part };
    }
    const match = /^\/parts\/([^/]*)$/.exec(url.pathname);
    if (match !== null && (method === 'GET' || method === 'DELETE')) {
      let sku: string;
      try {
        sku = decodeURIComponent(match[1] as string);
      } catch {
        return error(400, 'sku is not percent-encoded UTF-8');
      }
      if (!isSku(sku)) return error(400, 'sku must be 1 to 40 of A-Z, a-z, 0-9, _, ~ and -');
      const part = parts.get(sku);
      if (part === undefined) return error(404, `no part with sku ${JSON.stringify(sku)}`);
      if (method === 'GET') return { status: 200, body: part };
      parts.delete(sku);
      return { status: 204 };
    }
    return error(404, `no ${method} ${url.pathname}`);
  };
}
