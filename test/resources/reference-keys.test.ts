/**
 * A key of another thing is a reference, and a property of a few fixed values names a kind: neither
 * identifies an item (test/resources/documents/log-sinks.yaml, after DigitalOcean's shapes).
 * Inference had keyed DigitalOcean's sinks by `destination_uuid` (the destination a sink forwards to),
 * its destinations by `type` (two values: the second destination of a type was refused as a
 * duplicate), and made an accept of an image transfer a resource keyed by the `transfer_id` it accepts.
 * A log sink read at {logsink_id} is keyed by the answer's `sink_id`, not the create body's name, and an
 * optional property the create answer does not show (an evaluation run's `run_name`) is no key the server assigns.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { isOwnKey, isReference, ownNames } from '../../src/core/resources/key-names.js';
import { AUTH, JSON_TYPE, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/log-sinks.yaml', import.meta.url));

describe('keys of other things', () => {
  it('are no identifier: a sink has none, a destination and a log sink have the id their answer adds', async () => {
    const model = inferResources(await loadDocument(DOCUMENT));
    const identifiers = Object.fromEntries(model.resources.map((resource) => [resource.collectionPath, resource.identifier]));
    expect(Object.keys(identifiers)).toEqual(['/v2/monitoring/sinks/destinations', '/v2/databases/{database_cluster_uuid}/logsink']);
    expect(identifiers['/v2/monitoring/sinks/destinations']).toMatchObject({ parameter: 'destination_uuid', property: 'id', assignedBy: 'server' });
    expect(identifiers['/v2/databases/{database_cluster_uuid}/logsink']).toMatchObject({ parameter: 'logsink_id', property: 'sink_id', assignedBy: 'server' });
    for (const subject of ['/v2/monitoring/sinks', '/v2/gen-ai/evaluation_runs']) {
      expect(model.notes.find((note) => note.subject === subject)?.level, subject).toBe('ambiguous');
    }
  });

  it('are told by their qualifier', () => {
    expect(isReference('destination_uuid', ownNames('/v2/monitoring/sinks', 'sink_uuid'))).toBe(true);
    expect(isReference('petId', ownNames('/store/order', 'orderId'))).toBe(true);
    expect(isReference('project_id', ownNames('/v2/apps', 'id'))).toBe(true);
    expect(isReference('transfer_id', ownNames('/v2/images/{image_id}/transfer/accept', undefined))).toBe(true);
    // The item's own: bare keys, and keys qualified as the parameter or the collection is.
    expect(isReference('id', ownNames('/v2/apps', 'id'))).toBe(false);
    expect(isReference('evaluation_dataset_uuid', ownNames('/v2/gen-ai/evaluation_datasets', 'dataset_uuid'))).toBe(false);
    expect(isReference('plant_id', ownNames('/plants', undefined))).toBe(false);
    expect(isReference('categoryId', ownNames('/categories', undefined))).toBe(false);
    expect(isOwnKey('sink_id', 'logsink_id')).toBe(true);
    expect(isOwnKey('destination_uuid', 'sink_uuid')).toBe(false);
  });

  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });
  const headers = { ...AUTH, ...JSON_TYPE };
  it('lets two destinations of one type be created, each read at its own id', async () => {
    const ids: string[] = [];
    for (const name of ['first', 'second']) {
      const body = JSON.stringify({ name, type: 'opensearch_dbaas', config: { endpoint: 'logs.example.com' } });
      const created = await send(`${server.current.url}/v2/monitoring/sinks/destinations`, { method: 'POST', headers, body });
      expect(created.status, created.text).toBe(200);
      const { destination } = created.json as { destination: { id: string; name: string } };
      expect(destination.name).toBe(name);
      ids.push(destination.id);
    }
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) {
      const read = await send(`${server.current.url}/v2/monitoring/sinks/destinations/${id}`, { headers: AUTH });
      expect(read.status, read.text).toBe(200);
    }
  });

  it('lets one transfer be accepted again', async () => {
    for (let round = 0; round < 2; round += 1) {
      const body = JSON.stringify({ transfer_id: 7 });
      const accepted = await send(`${server.current.url}/v2/images/1/transfer/accept`, { method: 'POST', headers, body });
      expect(accepted.status, accepted.text).toBe(200);
    }
  });
});
