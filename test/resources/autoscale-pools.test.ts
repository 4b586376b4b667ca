/**
 * DigitalOcean's autoscale pools (test/resources/documents/autoscale-pools.yaml), as its public
 * document's run under verify met them:
 *   - a PUT with its optional body left out changes nothing: it was read as an empty pool, whose
 *     `config` (one of two objects) was made up and broke the oneOf, so the valid update got 422;
 *   - a refusal's `id` says its own status in the example's style (`unprocessable_entity`, `unauthorized`),
 *     not the example's `not_found`, also where prism's reading gives the example as `examples`;
 *   - a path the document does not route is refused in the document's one error shape (`id`,
 *     `message`), not ours (`error`, `message`), which broke it.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { AUTH, send, serverFor, VALID_HEADERS } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/autoscale-pools.yaml', import.meta.url));
const POOL = { name: 'web', config: { target_number_instances: 2 }, droplet_template: { region: 'nyc1', size: 's-1vcpu-1gb' } };

describe('autoscale pools in DigitalOcean’s shapes', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const url = (path: string) => `${server.current.url}${path}`;
  const created = async () => {
    const made = await send(url('/v2/droplets/autoscale'), { method: 'POST', headers: VALID_HEADERS, body: JSON.stringify(POOL) });
    expect(made.status, made.text).toBe(202);
    return (made.json as { autoscale_pool: { id: string } }).autoscale_pool;
  };

  it('accepts an update with its optional body left out, and changes nothing', async () => {
    const pool = await created();
    const updated = await send(url(`/v2/droplets/autoscale/${pool.id}`), { method: 'PUT', headers: AUTH });
    expect(updated.status, updated.text).toBe(200);
    expect((updated.json as { autoscale_pool: unknown }).autoscale_pool).toMatchObject(POOL);
    // A whole body still replaces, one config for the other.
    const dynamic = { ...POOL, config: { min_instances: 1, max_instances: 3 } };
    const replaced = await send(url(`/v2/droplets/autoscale/${pool.id}`), { method: 'PUT', headers: VALID_HEADERS, body: JSON.stringify(dynamic) });
    expect(replaced.status, replaced.text).toBe(200);
    expect((replaced.json as { autoscale_pool: { config: unknown } }).autoscale_pool.config).toEqual(dynamic.config);
  });

  it("says each refusal's own status in the error id: unprocessable_entity, unauthorized, not_found", async () => {
    const invalid = await send(url('/v2/droplets/autoscale'), { method: 'POST', headers: VALID_HEADERS, body: '{}' });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({ id: 'unprocessable_entity' });
    const anonymous = await send(url('/v2/droplets/autoscale'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ id: 'unauthorized' });
    const missing = await send(url('/v2/droplets/autoscale/nope'), { headers: AUTH });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ id: 'not_found' });
  });

  it("refuses a path the document does not route in the document's error shape", async () => {
    const unrouted = await send(url('/%3Cupload_url%3E'), { method: 'PUT', headers: AUTH });
    expect(unrouted.status).toBe(404);
    expect(unrouted.json).toEqual({ id: 'not_found', message: 'no operation has the path /%3Cupload_url%3E' });
  });

  it('conforms to its document under verify', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 1, stateful: true, timeoutMs: 5_000, token: 'test-token' });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  }, 120_000);
});
