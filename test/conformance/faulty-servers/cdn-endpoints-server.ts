/**
 * CDN endpoints (test/resources/documents/cdn-endpoints.yaml), correct by their document: a create
 * takes the endpoint bare and answers it in {"endpoint": {...}}; the item's own `endpoint`, the host
 * it is served from, is readOnly, so the server names it its own way and ignores one a client sends,
 * as OpenAPI allows. The list shows no id. One fault: the list leaves out the newest endpoint.
 */
import { randomUUID } from 'node:crypto';
import { jsonObjectBody } from './exact-json.js';
import { listenWithBodies, type Answer, type LocalServer } from './http-double.js';

export const CDN_FAULTS = {
  'list-drops-newest': 'GET /v2/cdn/endpoints leaves out the endpoint created last',
} as const;

export type CdnFault = keyof typeof CDN_FAULTS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Endpoint {
  readonly id: string;
  readonly endpoint: string;
  readonly origin: string;
  readonly label?: string;
}

export function startCdnEndpoints(fault?: CdnFault): Promise<LocalServer> {
  const endpoints = new Map<string, Endpoint>();
  const error = (status: number, message: string): Answer => ({ status, body: { id: status === 404 ? 'not_found' : 'bad_request', message } });
  const handle = (method: string, path: string, contentType: string | undefined, body: string): Answer => {
    const segments = path.split('/').slice(1).map(decodeURIComponent);
    if (segments[0] !== 'v2' || segments[1] !== 'cdn' || segments[2] !== 'endpoints' || segments.length > 4) return error(404, `no ${method} ${path}`);
    if (segments.length === 3) {
      if (method === 'GET') {
        const shown = [...endpoints.values()].slice(0, fault === 'list-drops-newest' ? -1 : undefined);
        return {
          status: 200,
          body: { endpoints: shown.map(({ endpoint, origin, label }) => ({ endpoint, origin, ...(label === undefined ? {} : { label }) })) },
        };
      }
      if (method !== 'POST') return error(404, `no ${method} ${path}`);
      const read = jsonObjectBody(body, contentType);
      if (typeof read === 'string') return error(400, read);
      const origin = read.get('origin');
      const label = read.get('label');
      if (typeof origin !== 'string' || [...origin].length > 253) return error(400, 'origin must be a string of at most 253 characters');
      if (label !== undefined && (typeof label !== 'string' || [...label].length > 100)) return error(400, 'label must be a string of at most 100 characters');
      // id and endpoint are readOnly: a client's are ignored, whatever they hold (OpenAPI: they are not sent), the server's own answered.
      const id = randomUUID();
      const made: Endpoint = { id, endpoint: `${id.slice(0, 8)}.cdn.example.com`, origin, ...(label === undefined ? {} : { label }) };
      endpoints.set(id, made);
      return { status: 201, body: { endpoint: made } };
    }
    const id = segments[3] as string;
    const found = UUID.test(id) ? endpoints.get(id.toLowerCase()) : undefined;
    if (found === undefined) return error(404, `no endpoint ${id}`);
    if (method === 'GET') return { status: 200, body: { endpoint: found } };
    if (method === 'DELETE') return endpoints.delete(found.id) ? { status: 204 } : error(404, `no endpoint ${id}`);
    return error(404, `no ${method} ${path}`);
  };
  return listenWithBodies(
    (req, path, text) => handle(req.method ?? 'GET', path, req.headers['content-type'], text),
    () => error(413, 'the body is too large'),
  );
}
