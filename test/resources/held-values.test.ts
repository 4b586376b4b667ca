/**
 * A property the create and replace bodies declare otherwise than the item they answer (Ory Kratos's
 * `credentials`, test/resources/documents/credentials-import.yaml). serve stores such a value only
 * where it fits the item's declaration, so its answers keep to their schema and a replace is not
 * refused for what the item cannot hold; verify expects it back only where it fits
 * (core/conformance/held-value.ts, one rule for both). Before, serve answered the credentials as sent
 * (breaking its own schema, and echoing the password) and refused the replace with 422.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/credentials-import.yaml', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const IMPORTED = { password: { config: { password: 'correct horse battery' } } };
const HELD = { password: { type: 'password', identifiers: ['ada@example.com'], version: 0 } };

describe('a property declared otherwise in the item than in its create and replace bodies', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const write = (method: string, path: string, body: unknown) =>
    send(`${server.current.url}${path}`, { method, headers: JSON_TYPE, body: JSON.stringify(body) });

  it('is stored only where it fits the item: answers keep to their schema and echo no password', async () => {
    const created = await write('POST', '/identities', { traits: { email: 'ada@example.com' }, credentials: IMPORTED });
    expect(created.status, created.text).toBe(201);
    expect(created.json).not.toHaveProperty('credentials');
    expect(created.text).not.toContain('correct horse battery');
    const id = (created.json as { id: string }).id;
    const read = await send(`${server.current.url}/identities/${id}`);
    expect(read.json).toEqual({ id, traits: { email: 'ada@example.com' } });

    const replaced = await write('PUT', `/identities/${id}`, { traits: { email: 'grace@example.com' }, credentials: IMPORTED });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json).toEqual({ id, traits: { email: 'grace@example.com' } });
  });

  it('is stored as sent where it fits the item', async () => {
    const created = await write('POST', '/identities', { traits: {}, credentials: HELD });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ credentials: HELD });
  });

  it('is not expected back by verify where it does not fit, and serve conforms', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 30, seed: 5, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  });
});
