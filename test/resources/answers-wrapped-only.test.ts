/**
 * A create body that is the item, bare, and answers that wrap the item in one property
 * (DigitalOcean's style: POST /v2/registries takes the registry, answers {"registry": {...}}):
 * test/resources/documents/answers-wrapped-only.yaml. Inference found no envelope, since the create
 * body did not wrap: the create and read answered `{}` (every item field dropped, the item being
 * written into the envelope's shape), and the server-made fields inside the wrapped answer were
 * never made. The envelope is the answers' alone.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/answers-wrapped-only.yaml', import.meta.url));

describe('answers that wrap the item while the create body is bare', () => {
  it('give the resource an envelope for answers only', async () => {
    const [resource] = inferResources(await loadDocument(DOCUMENT)).resources;
    expect(resource?.envelope).toEqual({ answer: 'registry' });
    expect(resource?.identifier).toMatchObject({ parameter: 'registry_name', property: 'name', assignedBy: 'client' });
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  it('answer the item, wrapped, with its server-made fields, and list it alike', async () => {
    const body = { name: 'ferns', subscription_tier_slug: 'basic', region: 'fra1' };
    const created = await send(`${server.current.url}/v2/registries`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    expect(created.status, created.text).toBe(201);
    const { registry } = created.json as { registry: Record<string, unknown> };
    expect(registry).toMatchObject({ name: 'ferns', region: 'fra1' });
    expect(typeof registry.created_at).toBe('string');
    const read = await send(`${server.current.url}/v2/registries/ferns`);
    expect(read.json).toEqual({ registry });
    const listed = await send(`${server.current.url}/v2/registries`);
    expect(listed.json).toEqual({ registries: [registry] });
  });

  it('conforms to its document under verify', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 4, stateful: true, timeoutMs: 5_000 });
    const failed = report.checks.filter((check) => check.status === 'failed');
    expect(failed.map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)).toEqual([]);
  });
});
