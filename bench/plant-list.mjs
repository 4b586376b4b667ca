// Measures paging GET /__control/plants over 1,000,000 plants (run by hand after npm run build):
//   node --expose-gc bench/plant-list.mjs
import { SHARED_TENANT, startServer } from '../dist/src/index.js';
const server = await startServer({ port: 0 });
const plants = (await server.stores.forTenant(SHARED_TENANT)).collection('plants');
for (let start = 0; start < 1_000_000; start += 50_000) {
  // Items of the 'plants' collection: the id as the key, and in the fields exactly (a bigint beyond 2^53).
  await plants.seed(
    Array.from({ length: 50_000 }, (_, i) => {
      const id = 9007199254740993n + BigInt(start + i);
      return { id, fields: { id, name: `Monstera ${start + i}` } };
    }),
  );
}
globalThis.gc?.();
const rss0 = process.memoryUsage().rss;
let t = performance.now();
const first = await fetch(`${server.url}/__control/plants`);
const body = await first.text();
const firstMs = performance.now() - t;
let pages = 1,
  next = first.headers.get('plantstore-next-cursor'),
  seen = JSON.parse(body).length;
t = performance.now();
let maxGap = 0,
  last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  maxGap = Math.max(maxGap, now - last);
  last = now;
}, 1);
while (next) {
  const r = await fetch(`${server.url}/__control/plants?limit=10000&cursor=${next}`);
  seen += (await r.text()).split('},{').length;
  pages += 1;
  next = r.headers.get('plantstore-next-cursor');
}
clearInterval(timer);
console.log(
  `1,000,000 plants: first page (1000) in ${firstMs.toFixed(1)} ms; all ${seen} via ${pages} pages of 10,000 in ${((performance.now() - t) / 1000).toFixed(2)} s; longest event-loop gap ${maxGap.toFixed(0)} ms; rss +${((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(0)} MiB`,
);
await server.close();
