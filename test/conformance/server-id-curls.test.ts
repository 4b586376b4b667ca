/**
 * A lifecycle finding on a document whose server assigns the ids (the expanded Petstore) prints
 * curl steps that read the created id from the create's answer into $ID1 and name it in the later
 * steps: pasted into bash against a fresh server that holds other pets, they reproduce the finding
 * on the faulty server (its delete does nothing) and not on a correct one (`plantstore serve`).
 * Printed as it was assigned in the run, the id would name a pet the fresh server never made.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { verify } from '../../contracts/index.js';
import type { CheckId, Finding } from '../../contracts/report.js';
import { findingCurl } from '../../contracts/reporters/finding.js';
import { startServer } from '../../src/index.js';
import { startResourceServer } from './faulty-servers/resource-servers.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/petstore-expanded.yaml', import.meta.url));
const run = promisify(execFile);

/** What the printed steps did in bash: the status of each answer printed (curl -i), the last body, and $ID1 at the end. */
interface ShellRun {
  readonly statuses: number[];
  readonly lastBody: string;
  readonly id: string;
}

/** The printed curl steps, with the run's target swapped for `target`, run by bash. */
async function runPrinted(curl: string, from: string, target: string): Promise<ShellRun> {
  // An echo after each step: an answer without a final newline would run into the next status line.
  const steps = curl.split(from).join(target).split('\n');
  const script = `set -e\n${steps.join('\necho\n')}\nprintf '\\nID1=%s\\n' "$ID1"\n`;
  const { stdout } = await run('bash', ['-c', script], { timeout: 30_000 });
  const statuses = [...stdout.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
  const lastHead = stdout.lastIndexOf('HTTP/1.1 ');
  const lastBody =
    stdout
      .slice(lastHead)
      .split(/\r?\n\r?\n/)[1]
      ?.split('\nID1=')[0] ?? '';
  return { statuses, lastBody, id: /\nID1=(.*)\n$/.exec(stdout)?.[1] ?? '' };
}

/** Pets created before the steps run, so the target's next id is not the one the run was given. */
async function createPets(target: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const answer = await request(`${target}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"name":"earlier ${i}"}` });
    expect(answer.statusCode).toBe(200);
    await answer.body.text();
  }
}

describe('server-assigned ids: the printed curl steps replay a lifecycle finding as printed', () => {
  const findings = new Map<CheckId, Finding>();
  let runTarget = '';

  beforeAll(async () => {
    const faulty = await startResourceServer('pets', 'delete-does-nothing');
    try {
      runTarget = faulty.url;
      const report = await verify({ target: faulty.url, spec: SPEC, runs: 20, seed: 20_261_123, timeoutMs: 5_000 });
      for (const check of report.checks) {
        const finding = check.findings.find((f) => (f.before ?? []).some((r) => r.creates?.assignedBy === 'server'));
        if (finding !== undefined) findings.set(check.id, finding);
      }
    } finally {
      await faulty.close();
    }
  }, 120_000);

  const fresh: { faulty?: Awaited<ReturnType<typeof startResourceServer>>; correct?: Awaited<ReturnType<typeof startServer>> } = {};
  beforeAll(async () => {
    fresh.faulty = await startResourceServer('pets', 'delete-does-nothing');
    fresh.correct = await startServer({ port: 0, spec: SPEC });
    await createPets(fresh.faulty.url, 3);
    await createPets(fresh.correct.url, 3);
  });
  afterAll(async () => {
    await fresh.faulty?.close();
    await fresh.correct?.close();
  });

  it('deleted-item-gone: create, delete, read — the read finds the deleted pet on the faulty server only', async () => {
    const finding = findings.get('deleted-item-gone');
    expect(finding, 'the faulty delete was not caught by deleted-item-gone').toBeDefined();
    const curl = findingCurl(finding as Finding);
    const printedId = (finding as Finding).before?.find((r) => r.creates !== undefined)?.creates?.id ?? '';
    // The id the run was given is not in the steps: it is read from the create's answer.
    expect(curl).not.toMatch(new RegExp(`/pets/${printedId}(?!\\d)`));

    const onFaulty = await runPrinted(curl, runTarget, fresh.faulty?.url ?? '');
    expect(onFaulty.id).toMatch(/^\d+$/);
    expect(onFaulty.id).not.toBe(printedId);
    // The delete answered 204 (the pet was there), and the read still finds it: reproduced.
    expect(onFaulty.statuses).toEqual([204, 200]);
    expect(JSON.parse(onFaulty.lastBody)).toMatchObject({ id: Number(onFaulty.id) });

    const onCorrect = await runPrinted(curl, runTarget, fresh.correct?.url ?? '');
    expect(onCorrect.statuses).toEqual([204, 404]);
  }, 60_000);

  it('deleted-item-not-listed: create, delete, list — the list shows the deleted pet on the faulty server only', async () => {
    const finding = findings.get('deleted-item-not-listed');
    expect(finding, 'the faulty delete was not caught by deleted-item-not-listed').toBeDefined();
    const curl = findingCurl(finding as Finding);

    const onFaulty = await runPrinted(curl, runTarget, fresh.faulty?.url ?? '');
    expect(onFaulty.statuses).toEqual([204, 200]);
    const listed = (JSON.parse(onFaulty.lastBody) as Array<{ id: number }>).map((pet) => String(pet.id));
    expect(listed).toContain(onFaulty.id);

    const onCorrect = await runPrinted(curl, runTarget, fresh.correct?.url ?? '');
    expect(onCorrect.statuses).toEqual([204, 200]);
    const left = (JSON.parse(onCorrect.lastBody) as Array<{ id: number }>).map((pet) => String(pet.id));
    expect(left).not.toContain(onCorrect.id);
    expect(left.length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
