// The floor: the fastest a Node server can do the "Create Plant" job.
// A bare node:http handler that reads the body, JSON.parses it and answers
// 200 with {"name":...,"tag":...}. No validation, no auth, no store, no logging.
//
// --store: the public Plant Store's three operations on a Map, the floor of the
// list and delete/re-create rows: POST /plants stores {name, tag} by id (409 on
// a taken id), GET /plants?limit=N answers the first N in creation order as
// [{"name","tag"}], DELETE /plants/{id} answers 204 (404 when absent).
//
//   node bench/floor-server.mjs --port 4011 [--host 127.0.0.1] [--store]   (--port 0 picks a free one)
// @ts-check
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    store: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('floor-server: --port <0..65535> is required');
  process.exit(2);
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {string} body */
function answer(res, status, body) {
  res.writeHead(status, body === '' ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** @type {Map<string, { name: unknown, tag: unknown }>} */
const plants = new Map();

/** @type {import('node:http').RequestListener} */
function storeHandler(req, res) {
  const url = req.url ?? '/';
  if (req.method === 'GET') {
    const limit = Number(new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('limit') ?? 1000);
    const page = [];
    for (const plant of plants.values()) {
      if (page.length >= limit) break;
      page.push(plant);
    }
    return answer(res, 200, JSON.stringify(page));
  }
  if (req.method === 'DELETE') return answer(res, plants.delete(url.slice('/plants/'.length)) ? 204 : 404, '');
  /** @type {Buffer[]} */
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const plant = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const id = String(plant.id);
    if (plants.has(id)) return answer(res, 409, '{"error":409,"message":"taken"}');
    plants.set(id, { name: plant.name, tag: plant.tag });
    answer(res, 200, JSON.stringify({ name: plant.name, tag: plant.tag }));
  });
}

const server = http.createServer(
  values.store
    ? storeHandler
    : (req, res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        req.on('data', (chunk) => chunks.push(chunk));
        req.on('end', () => {
          let plant;
          try {
            plant = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            const error = '{"error":400,"message":"body is not JSON"}';
            res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(error) });
            res.end(error);
            return;
          }
          const body = JSON.stringify({ name: plant?.name, tag: plant?.tag });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
);

// Announced as plantstore does, so the start-up bench times both the same way.
server.listen(port, values.host, () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(`listening on http://${values.host}:${address.port}`);
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
