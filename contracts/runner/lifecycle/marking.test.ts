/**
 * Where a lifecycle writes the marker that finds an item in a list whose items show no id
 * (steps.ts markingOf): a free text property the client writes, never a readOnly one (the server
 * answers it its own way) nor one of a format (a marker's text breaks a date-time). The format guard
 * had read a property's `format` off describeSchema's wrapper, where it never is, so a date-time
 * declared first got the marker.
 */
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../../src/core/openapi/load-document.js';
import { inferResources } from '../../../src/core/resources/infer.js';
import { markingOf } from './steps.js';

/** Events created with `fields`, listed without their id, read at /events/{id}. */
function eventsDocument(fields: Record<string, object>): object {
  const item = { type: 'object', properties: { id: { type: 'string', format: 'uuid', readOnly: true }, ...fields } };
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  return {
    openapi: '3.0.3',
    info: { title: 'events', version: '1' },
    paths: {
      '/events': {
        post: { requestBody: { required: true, ...json(item) }, responses: { '201': { description: 'made', ...json(item) } } },
        get: { responses: { '200': { description: 'listed', ...json({ type: 'array', items: { type: 'object', properties: fields } }) } } },
      },
      '/events/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        get: { responses: { '200': { description: 'read', ...json(item) }, '404': { description: 'none' } } },
      },
    },
  };
}

async function marking(fields: Record<string, object>) {
  const document = await loadDocument(eventsDocument(fields));
  const [resource] = inferResources(document).resources;
  const list = document.operations.find((operation) => operation.method.toLowerCase() === 'get' && operation.path === '/events');
  if (resource === undefined) throw new Error('no resource inferred');
  return markingOf(resource, list);
}

describe('the marker of a list without ids', () => {
  it('goes in a plain text property, not a date-time declared before it', async () => {
    expect(await marking({ starts_at: { type: 'string', format: 'date-time' }, title: { type: 'string' } })).toEqual({ by: 'marker', property: 'title' });
  });

  it('goes in a property the client writes, not a readOnly one declared before it', async () => {
    expect(await marking({ host: { type: 'string', readOnly: true }, title: { type: 'string' } })).toEqual({ by: 'marker', property: 'title' });
  });

  it('is none where only such properties are shown', async () => {
    expect(await marking({ starts_at: { type: 'string', format: 'date-time' }, host: { type: 'string', readOnly: true } })).toBeUndefined();
  });
});
