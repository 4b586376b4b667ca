/**
 * Gitea's API, a Swagger 2.0 document (cut to gitea-keys-assets.json: a user's keys and a release's
 * attachments), was the first 2.0 document served and verified here. Three things went wrong:
 * - its multipart upload names a `type: file` form field, which http-spec passes on as 2.0 wrote
 *   it: serve answered 500 (ajv will not compile a `file` type) and verify stopped before its first
 *   request ("object: nothing to choose from"); it is now OpenAPI 3's file, a binary string
 *   (src/core/openapi/swagger2.ts);
 * - its `basePath` (/api/v1) without a `host` was dropped with the host: serve answered 404 under it;
 * - the document-wide API key travels in the query (`?token=`), and verify's "delete without
 *   credentials" step kept it there: serve rightly deleted the item, and verify blamed it
 *   (negative-rejection, auth-enforced) and then every later step for the item being gone
 *   (ensure-resource-availability, created-item-listed);
 * - an int64 parameter sharing its segment with text (`/pulls/{index}.diff`) was read by prism
 *   as a double: serve took -2^63 - 1 as -2^63 and answered 200 (src/validation/parameters.ts);
 * - an organisation's hooks are created at `POST /orgs/{org}/hooks/` (a trailing slash), and verify
 *   filled the item path's `{id}` from that empty last segment: it read, updated and deleted
 *   `/orgs/acme/hooks/` and blamed serve's 405 (gitea-org-hooks.json; contracts/runner/parent-path.ts).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/gitea-keys-assets.json', import.meta.url));
const HOOKS = fileURLToPath(new URL('../fixtures/documents/gitea-org-hooks.json', import.meta.url));
const BOUNDARY = 'gitea-swagger2-boundary';

function upload(part: string): { headers: Record<string, string>; body: string } {
  const body = [
    `--${BOUNDARY}`,
    `Content-Disposition: form-data; name="${part}"; filename="notes.txt"`,
    'Content-Type: text/plain',
    '',
    'hello',
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n');
  return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body };
}

describe('serve of a Swagger 2.0 document', () => {
  const server = serverFor({ spec: SPEC });

  it('takes a `type: file` form field as a file: an upload is created, one without it refused (not 500)', async () => {
    const created = await send(`${server.current.url}/repos/o/r/releases/1/assets?name=notes.txt&token=t`, { method: 'POST', ...upload('attachment') });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    const refused = await send(`${server.current.url}/repos/o/r/releases/1/assets?token=t`, { method: 'POST', ...upload('other') });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('attachment');
  });

  it('refuses an int64 beyond range in a segment it shares with text (`/pulls/{index}.diff`), as in a segment of its own', async () => {
    const status = async (index: string) => (await send(`${server.current.url}/repos/o/r/pulls/${index}.diff?token=t`)).status;
    expect(await status('1')).toBe(200);
    // prism reads the text as a double: -2^63 - 1 became -2^63, within range (answered 200).
    expect(await status('-9223372036854775809')).toBeGreaterThanOrEqual(400);
    expect(await status('9223372036854775808')).toBeGreaterThanOrEqual(400);
  });

  it('answers under its basePath, as at its root', async () => {
    const under = await send(`${server.current.url}/api/v1/user/keys?token=t`);
    expect(under.status).toBe(200);
    expect(under.json).toEqual([]);
  });
});

describe('verify of serve of a Swagger 2.0 document', () => {
  const server = serverFor({ spec: SPEC });
  const failed = (report: Awaited<ReturnType<typeof verify>>) =>
    report.checks.filter((check) => check.status === 'failed').map((check) => `${check.id}: ${check.findings[0]?.message}`);

  it('draws the file upload, and finds serve conforming under the basePath', { timeout: 120_000 }, async () => {
    const report = await verify({ target: `${server.current.url}/api/v1`, spec: SPEC, token: 'T123', runs: 10, seed: 20_261_128 });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    // Its cases were drawn and judged (the valid ones name a release the run did not create, so its invalid ones).
    const judged = report.coverage.filter((entry) => entry.operation.startsWith('repoCreateReleaseAttachment ')).reduce((n, entry) => n + entry.cases, 0);
    expect(judged).toBeGreaterThan(0);
  });

  it('sends its "delete without credentials" step without the query API key: no false alarm', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: SPEC, token: 'T123', runs: 5, seed: 4, stateful: true });
    expect(failed(report)).toEqual([]);
    // The step was sent, and judged.
    expect(report.checks.find((check) => check.id === 'auth-enforced')?.status).toBe('passed');
    expect(report.checks.find((check) => check.id === 'created-item-listed')?.status).toBe('passed');
  });
});

describe("verify of serve of Gitea's organisation hooks (a create path with a trailing slash)", () => {
  const server = serverFor({ spec: HOOKS });

  it('reads, updates and deletes a created hook at its item path: no false alarm', { timeout: 120_000 }, async () => {
    const report = await verify({ target: server.current.url, spec: HOOKS, token: 'T123', runs: 5, seed: 4, stateful: true });
    const flagged = report.checks.filter((check) => check.status === 'failed').map((check) => `${check.id}: ${check.findings[0]?.message}`);
    expect(flagged).toEqual([]);
    expect(report.checks.find((check) => check.id === 'update-applied')?.status).toBe('passed');
  });
});
