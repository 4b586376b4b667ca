/**
 * A lifecycle finding replays: `--seed` + `--replay` against the same faulty server finds it again,
 * with fresh ids (the run that found it left its own in the target) and says so; the printed curl
 * steps carry the created ids as shell variables, set to the ids sent, with a note to set fresh ones.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { findingCurl } from '../../contracts/reporters/finding.js';
import { startResourceServer } from './faulty-servers/resource-servers.js';

const SPEC = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));

describe('a lifecycle finding replays exactly', () => {
  it('--replay finds it again with fresh ids and says so; the curls use id variables', async () => {
    const server = await startResourceServer('plants', 'list-hides-creates');
    try {
      const base = { target: server.url, spec: SPEC, token: 'test-token', runs: 20, seed: 20_261_123, timeoutMs: 5_000 };
      const report = await verify(base);
      const finding = report.checks.find((c) => c.id === 'created-item-listed')?.findings[0];
      expect(finding, 'the faulty list was not caught').toBeDefined();
      if (finding === undefined) return;
      const printedCreate = (finding.before ?? []).find((r) => /create plants with id/.test(r.label));
      const printedId = /with id (-?\d+)/.exec(printedCreate?.label ?? '')?.[1];
      expect(printedId).toBeDefined();

      const curl = findingCurl(finding);
      expect(curl).toContain(`ID1=${printedId}`);
      expect(curl).toMatch(/set fresh ones/);
      const createLine = curl.split('\n').find((line) => line.includes("-X 'POST'")) ?? '';
      expect(createLine).toContain(`'"$ID1"'`);
      expect(createLine).not.toContain(printedId);
      // The shell reads the variable back into the very body that was sent.
      const printf = createLine.slice(0, createLine.indexOf(' | curl'));
      const shellBody = execFileSync('bash', ['-c', `ID1=${printedId}; ${printf}`]).toString();
      expect(shellBody).toBe(printedCreate?.body);

      const replayed = await verify({ ...base, seed: finding.seed, replay: finding.path ?? '' });
      const again = replayed.checks.find((c) => c.id === 'created-item-listed');
      expect(again?.status).toBe('failed');
      const replayCreate = (again?.findings[0]?.before ?? []).find((r) => /create plants with id/.test(r.label));
      expect(replayCreate?.label).toMatch(/drawn fresh for this replay/);
      expect(replayCreate?.label).not.toContain(`with id ${printedId} `);
    } finally {
      await server.close();
    }
  }, 120_000);
});
