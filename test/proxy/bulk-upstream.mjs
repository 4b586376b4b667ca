/**
 * An upstream for the large-answer proxy tests, run as its own process so that sending 512 MiB
 * does not slow the test process (which times the stand-in's control API meanwhile). GET
 * /plants?limit=1 answers a head and then one byte every 100 ms for ever; GET /plants?limit=2
 * declares 8 MiB, sends 5 MiB at once and then drips the same way; any other request
 * answers BYTES (argv[2]) ASCII spaces as application/json, as fast as the reader takes them.
 * Prints its port once it listens.
 */
import { createServer } from 'node:http';

const bytes = Number(process.argv[2]);
const chunk = Buffer.alloc(64 * 1024, 0x20);

const server = createServer((request, response) => {
  response.on('error', () => {});
  request.resume();
  request.on('end', () => {
    if (request.url === '/plants?limit=1' || request.url === '/plants?limit=2') {
      const large = request.url === '/plants?limit=2';
      response.writeHead(200, { 'content-type': 'application/json', ...(large ? { 'content-length': String(8 * 1024 * 1024) } : {}) });
      response.write(large ? Buffer.alloc(5 * 1024 * 1024, 0x20) : '[');
      const drip = setInterval(() => response.write(' '), 100);
      response.on('close', () => clearInterval(drip));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !response.destroyed) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
// The test ends it; should it not, it goes with its parent.
process.on('disconnect', () => process.exit(0));
