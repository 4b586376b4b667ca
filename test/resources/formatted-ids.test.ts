/**
 * An item path whose parameter has a checked string format (DigitalOcean's `{reserved_ipv6}`, a string
 * of format ipv6: test/resources/documents/reserved-ipv6.yaml). Inference had keyed the addresses by
 * the create body's one required string, `region_slug`, so a create made the key "nyc3" and the read
 * path itself refused it (400, not an ipv6). The parameter names values of its format: the address
 * the server assigns, made in that format.
 */
import { fileURLToPath } from 'node:url';
import { isIPv6 } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/reserved-ipv6.yaml', import.meta.url));

describe('an item path parameter of format ipv6', () => {
  it('is matched to the property of that format, assigned by the server', async () => {
    const [resource] = inferResources(await loadDocument(DOCUMENT)).resources;
    expect(resource?.identifier).toMatchObject({ parameter: 'reserved_ipv6', property: 'ip', assignedBy: 'server' });
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  it('gets ipv6 keys that its own read path takes', async () => {
    const made: string[] = [];
    for (const region of ['nyc3', 'fra1']) {
      const created = await send(`${server.current.url}/v2/reserved_ipv6`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ region_slug: region }),
      });
      expect(created.status, created.text).toBe(201);
      const { ip } = created.json as { ip: string };
      expect(isIPv6(ip), ip).toBe(true);
      made.push(ip);
      const read = await send(`${server.current.url}/v2/reserved_ipv6/${ip}`);
      expect(read.status, read.text).toBe(200);
      expect(read.json).toMatchObject({ ip, region_slug: region });
    }
    expect(new Set(made).size).toBe(2);
    const listed = await send(`${server.current.url}/v2/reserved_ipv6`);
    expect((listed.json as { ip: string }[]).map((item) => item.ip)).toEqual(made);
  });
});
