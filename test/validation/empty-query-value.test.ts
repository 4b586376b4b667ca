/**
 * One empty-value rule for serve and verify (issue 19): `?uid=` for a required query parameter
 * without allowEmptyValue is refused by serve with a message that says it is empty (not "must
 * have required property 'uid'"), verify never sends it as valid, and so verify finds serve
 * conforming; a parameter with allowEmptyValue takes the empty value.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { startServer } from '../../src/index.js';

const spec = fileURLToPath(new URL('../fixtures/empty-query-values.yaml', import.meta.url));

describe('an empty required query value', () => {
  it('is refused by serve as empty, taken where allowEmptyValue says so, and verify agrees', { timeout: 60_000 }, async () => {
    const server = await startServer({ spec, port: 0 });
    try {
      const empty = await fetch(`${server.url}/lookups?uid=&note=x`);
      const text = await empty.text();
      expect(empty.status).toBe(400);
      expect(text).toMatch(/query parameter uid is empty/);
      expect(text).not.toMatch(/required property/);
      expect((await fetch(`${server.url}/lookups?uid=a&note=`)).status).toBe(200);
      const report = await verify({ target: server.url, spec, runs: 50, seed: 4 });
      expect(report.checks.flatMap((check) => check.findings.map((f) => f.message))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
