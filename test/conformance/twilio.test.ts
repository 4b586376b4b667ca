/**
 * Twilio's whole TaskRouter document (bench/documents/twilio_taskrouter_v1.json, 570 KB, MIT): serve
 * stands in for it and verify judges the stand-in, with the stateful model. Its shapes are every
 * Twilio API's: server-made sids of a pattern, forms in, snake_case out (`FriendlyName` answered as
 * `friendly_name`, `IgnoreCapacity` text answered as a boolean), updates by POST on the item. What
 * remains is warnings of statuses the document does not declare (it declares no failure at all).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { spawnServe } from '../persistence/cli-server.js';

const TWILIO = fileURLToPath(new URL('../../bench/documents/twilio_taskrouter_v1.json', import.meta.url));

describe('serve of Twilio TaskRouter’s document, as verify judges it', () => {
  it('conforms, but for undeclared statuses', { timeout: 180_000 }, async () => {
    const server = await spawnServe(['--spec', TWILIO, '--log-level', 'warn'], 60_000);
    try {
      const report = await verify({
        target: server.url,
        spec: TWILIO,
        auth: ['basic:ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx:secret'],
        runs: 10,
        seed: 1,
        stateful: true,
        timeoutMs: 10_000,
      });
      const failed = report.checks.filter((check) => check.status === 'failed').map((check) => `${check.id}: ${check.findings[0]?.message}`);
      expect(failed).toEqual([]);
      // The stateful checks ran (they are skipped when creates or updates are refused).
      for (const id of ['update-applied', 'created-item-listed', 'stored-content-shown'])
        expect(report.checks.find((check) => check.id === id)?.status, id).toBe('passed');
    } finally {
      server.child.kill('SIGTERM');
    }
  });
});
