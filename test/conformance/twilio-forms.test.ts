/**
 * Twilio's TaskRouter creates take form bodies (`application/x-www-form-urlencoded`), and
 * verify's stateful steps change a drawn body (a fresh marker, the first create's parent) before
 * sending it. They sent the changed body as JSON text under the form's content type, and a correct
 * server (serve, which reads the form) refused it: a false positive-acceptance failure on every
 * create under a Workspace. The steps now encode a changed body as the operation takes it
 * (contracts/generators/request-cases/body-encoding.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { serverFor } from '../support/server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/twilio-taskrouter-workspaces.json', import.meta.url));

describe("verify's stateful steps on Twilio TaskRouter's form bodies", () => {
  const server = serverFor({ spec: SPEC });

  it('send forms as forms: serve conforms, every create accepted', { timeout: 120_000 }, async () => {
    const report = await verify({
      target: server.current.url,
      spec: SPEC,
      auth: ['basic:ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx:secret'],
      runs: 15,
      seed: 20_261_127,
      stateful: true,
    });
    const failed = report.checks.filter((check) => check.status === 'failed').map((check) => `${check.id}: ${check.findings[0]?.message}`);
    expect(failed).toEqual([]);
    const acceptance = report.checks.find((check) => check.id === 'positive-acceptance');
    expect(acceptance?.status).toBe('passed');
    // The stateful checks ran on the Workers under a Workspace (they were skipped when its creates were refused).
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.status).toBe('passed');
  });
});
