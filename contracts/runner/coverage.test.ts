/** The coverage report of a large document: read from the tally once, not once per operation and check. */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.js';
import type { Tally } from './aggregate.js';
import { coverageOf } from './coverage.js';
import type { Plan } from './plan.js';

describe('coverageOf', () => {
  it("makes the report of a document of DigitalOcean's size at once, cell by cell", () => {
    // About DigitalOcean's: 500 operations, each judged at three statuses by ten checks.
    const plans = Array.from(
      { length: 500 },
      (_, i) => ({ operation: { method: 'get', path: `/v2/things${i}`, iid: `op${i}` }, properties: [] }) as unknown as Plan,
    );
    const coverage = new Map<string, number>();
    for (let i = 0; i < plans.length; i++)
      for (const status of ['200', '401', '404']) for (const check of CHECKS.slice(0, 10)) coverage.set(`${i}|${status}|${check.id}`, i + 1);
    const tally = { coverage } as unknown as Tally;
    const started = performance.now();
    const entries = coverageOf(plans, tally, new Map());
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(2_000);
    const first = CHECKS[0]?.id;
    expect(entries.filter((e) => e.operation === 'op7 (GET /v2/things7)' && e.check === first).map((e) => [e.status, e.cases])).toEqual([
      ['200', 8],
      ['401', 8],
      ['404', 8],
    ]);
    expect(entries.filter((e) => e.operation === 'op7 (GET /v2/things7)' && e.cases === 0)).toHaveLength(CHECKS.length - 10);
  });
});
