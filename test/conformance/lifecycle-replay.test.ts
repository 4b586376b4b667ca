/**
 * A lifecycle finding is shrunk to the steps that show it, and replays: `--seed` + `--replay`
 * against the same faulty server sends those very steps again and finds it again, with fresh ids
 * (the run that found it left its own in the target) and says so; the printed curl steps carry the
 * created ids as shell variables, set to the ids sent, with a note to set fresh ones.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { findingCurl } from '../../contracts/reporters/finding.js';
import { startResourceServer } from './faulty-servers/resource-servers.js';

const SPEC = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));

/** A step as the curl lines and a replay must agree on it: method and URL, drawn ids left out. */
function stepShape(request: { readonly method: string; readonly url: string }): string {
  return `${request.method} ${request.url.replace(/-?\d{6,}/g, '<id>')}`;
}

/** The body a curl line sends, as the shell makes it (curl replaced by a function that prints its --data-binary). */
function shellBody(line: string, assignments: string): string {
  const fakeCurl = `curl() { while [ $# -gt 0 ]; do if [ "$1" = --data-binary ]; then if [ "$2" = @- ]; then cat; else printf '%s' "$2"; fi; fi; shift; done; }`;
  return execFileSync('bash', ['-c', `${fakeCurl}; ${assignments}; ${line}`]).toString();
}

describe('a lifecycle finding is shrunk and replays exactly', () => {
  it('is shrunk to a create and a list; --replay sends the same steps with fresh ids and says so; the curls use id variables', async () => {
    const server = await startResourceServer('plants', 'list-hides-creates');
    try {
      const base = { target: server.url, spec: SPEC, token: 'test-token', runs: 20, seed: 20_261_123, timeoutMs: 5_000 };
      const report = await verify(base);
      const finding = report.checks.find((c) => c.id === 'created-item-listed')?.findings[0];
      expect(finding, 'the faulty list was not caught').toBeDefined();
      if (finding === undefined) return;
      // Shrunk to what shows the fault: one create, then a list that leaves it out.
      expect(finding.shrunk).toBe(true);
      expect(finding.shrinkNote).toBeUndefined();
      const printed = [...(finding.before ?? []), finding.request];
      expect(printed.map((r) => r.method)).toEqual(['POST', 'GET']);
      const printedCreate = (finding.before ?? []).find((r) => /create plants with id/.test(r.label));
      const printedId = /with id (-?\d+)/.exec(printedCreate?.label ?? '')?.[1];
      expect(printedId).toBeDefined();
      // The create's body shrunk too: only what the document requires (and the marker the list is searched for).
      expect(Object.keys(JSON.parse(printedCreate?.body ?? '{}') as object).sort()).toEqual(['id', 'name']);

      const curl = findingCurl(finding);
      expect(curl).toContain(`ID1=${printedId}`);
      expect(curl).toMatch(/set fresh ones/);
      const createLine = curl.split('\n').find((line) => line.includes("-X 'POST'")) ?? '';
      expect(createLine).toContain(`'"$ID1"'`);
      expect(createLine).not.toContain(printedId);
      // The shell reads the variable back into the very body that was sent.
      expect(shellBody(createLine, `ID1=${printedId}`)).toBe(printedCreate?.body);

      const replayed = await verify({ ...base, seed: finding.seed, replay: finding.path ?? '' });
      const again = replayed.checks.find((c) => c.id === 'created-item-listed');
      expect(again?.status).toBe('failed');
      const replayedFinding = again?.findings[0];
      // The very steps printed, in order (ids drawn fresh).
      expect([...(replayedFinding?.before ?? []), ...(replayedFinding ? [replayedFinding.request] : [])].map(stepShape)).toEqual(printed.map(stepShape));
      const replayCreate = (replayedFinding?.before ?? []).find((r) => /create plants with id/.test(r.label));
      expect(replayCreate?.label).toMatch(/drawn fresh for this replay/);
      expect(replayCreate?.label).not.toContain(`with id ${printedId} `);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a fault that shows late in the walk is shrunk to the steps it needs: create, delete, list', async () => {
    const server = await startResourceServer('plants', 'delete-does-nothing');
    try {
      const base = { target: server.url, spec: SPEC, token: 'test-token', runs: 20, seed: 20_261_123, timeoutMs: 5_000 };
      const report = await verify(base);
      const finding = report.checks.find((c) => c.id === 'deleted-item-not-listed')?.findings[0];
      expect(finding, 'the faulty delete was not caught').toBeDefined();
      if (finding === undefined) return;
      expect(finding.shrunk).toBe(true);
      const printed = [...(finding.before ?? []), finding.request];
      // The walk sent create, list, create, list (limit 1), delete, list; the list without the delete shows nothing wrong.
      expect(printed.map((r) => r.method)).toEqual(['POST', 'DELETE', 'GET']);
      const replayed = await verify({ ...base, seed: finding.seed, replay: finding.path ?? '' });
      const again = replayed.checks.find((c) => c.id === 'deleted-item-not-listed')?.findings[0];
      expect([...(again?.before ?? []), ...(again ? [again.request] : [])].map(stepShape)).toEqual(printed.map(stepShape));
    } finally {
      await server.close();
    }
  }, 120_000);
});
