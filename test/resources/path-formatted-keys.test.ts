/**
 * A server-made key for a plain string property, where an item operation declares its path parameter
 * with a format (DigitalOcean's add-ons: `uuid` a plain string in the answer, {resource_uuid} plain
 * in the read and format uuid in the delete; test/resources/documents/add-ons.yaml). The stand-in made
 * the key "1", which its own delete path refused (400, not a uuid): the key must fit every item path.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/add-ons.yaml', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe("a server-made key where one item operation's path parameter declares a format", () => {
  it('takes that format', async () => {
    const [resource] = inferResources(await loadDocument(DOCUMENT)).resources;
    expect(resource?.identifier).toMatchObject({ parameter: 'resource_uuid', property: 'uuid', assignedBy: 'server', type: { kind: 'uuid' } });
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  it('is made so that every item path takes it: read, then delete', async () => {
    const created = await send(`${server.current.url}/v2/add-ons/saas`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ name: 'my-db' }) });
    expect(created.status, created.text).toBe(200);
    const { uuid } = created.json as { uuid: string };
    expect(uuid).toMatch(UUID);
    const read = await send(`${server.current.url}/v2/add-ons/saas/${uuid}`);
    expect(read.status, read.text).toBe(200);
    const deleted = await send(`${server.current.url}/v2/add-ons/saas/${uuid}`, { method: 'DELETE' });
    expect(deleted.status, deleted.text).toBe(204);
  });
});
