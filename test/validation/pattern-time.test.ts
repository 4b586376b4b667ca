/**
 * A client's long string against a document's `pattern` holds nothing up: Eclipse Ditto's
 * unanchored `Definition` pattern made JavaScript's RegExp backtrack for seconds on a
 * 60,000-character value (docs/limitations.md, "Patterns"), and the server answered nobody
 * meanwhile. The linear engine (core/regexp/pattern.ts) judges it at once; a request sent beside
 * it is answered at once.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../persistence/cli-server.js';

const DITTO = fileURLToPath(new URL('../fixtures/public/ditto-api-2.yml', import.meta.url));
const AUTH = { authorization: 'Bearer T0K' };

describe("a long value against Eclipse Ditto's definition pattern", () => {
  it('is judged without holding the server', { timeout: 120_000 }, async () => {
    const server = await spawnServe(['--spec', DITTO, '--token', 'T0K', '--log-level', 'warn'], 60_000);
    try {
      const url = `${server.url}/api/2/things/org.example:thing-1/definition`;
      // Warm both paths first, so what is timed below is the pattern's work.
      await fetch(url, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/json' }, body: '"a:b:c"' });
      await fetch(`${server.url}/api/2/things`, { headers: AUTH });
      const long = JSON.stringify('a'.repeat(60_000) + ':');
      const started = performance.now();
      const put = fetch(url, { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/json' }, body: long }).then(async (response) => {
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - started };
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const beside = await fetch(`${server.url}/api/2/things`, { headers: AUTH });
      await beside.arrayBuffer();
      const besideMs = performance.now() - started;
      const judged = await put;
      expect(judged.status).toBe(400);
      // With the backtracking engine: the PUT took ~10 s here and the request beside it waited as long.
      expect(judged.ms).toBeLessThan(2_000);
      expect(besideMs).toBeLessThan(2_000);
    } finally {
      server.child.kill('SIGTERM');
    }
  });
});
