// @ts-check
// The first answers after a start: a POST /plants sent as soon as "listening" is printed (it must
// not wait for prism's mocker), then, --wait ms (1500) later, the first request with a Prefer header (which
// needs the mocker: 1.35 s when it loaded on that request).
//
//   node bench/first-prefer.mjs [--cli dist/src/cli/main.js] [--rounds 5]
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { cli: { type: 'string', default: 'dist/src/cli/main.js' }, rounds: { type: 'string', default: '5' }, wait: { type: 'string', default: '1500' } },
});

/** @returns {Promise<number>} ms to a whole answer */
function post(url, headers) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body = '{"name":"Fern","id":1}';
    const req = request(`${url}/plants`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function round() {
  const child = spawn(process.execPath, [String(values.cli), 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve(match[1]);
    });
  });
  const first = await post(url, {});
  await new Promise((resolve) => setTimeout(resolve, Number(values.wait)));
  const prefer = await post(url, { prefer: 'code=400' });
  child.kill('SIGKILL');
  return { first, prefer };
}

const results = [];
for (let index = 0; index < Number(values.rounds); index += 1) results.push(await round());
const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(1);
console.log(
  `${values.cli}: first POST /plants ${median(results.map((r) => r.first))} ms, first Prefer (${values.wait} ms later) ${median(results.map((r) => r.prefer))} ms (medians of ${results.length})`,
);
