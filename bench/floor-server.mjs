// The floor: the fastest a Node server can do the "Create Plant" job.
// A bare node:http handler that reads the body, JSON.parses it and answers
// 200 with {"name":...,"tag":...}. No validation, no auth, no store, no logging.
//
//   node bench/floor-server.mjs --port 4011 [--host 127.0.0.1]   (--port 0 picks a free one)
// @ts-check
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('floor-server: --port <0..65535> is required');
  process.exit(2);
}

const server = http.createServer((req, res) => {
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
});

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
