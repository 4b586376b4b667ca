/**
 * A request that names the item's properties otherwise, in case and separators only: every Twilio
 * API takes `FriendlyName` in a create's form and answers `friendly_name`. The stand-in dropped the
 * value (the answer writer keeps only the item's declared properties): a Workspace created with a
 * name came back without one, and `?FriendlyName=` filtered nothing. One reading
 * (core/resources/held-names.ts) holds it under the item's name, and the list filter reads it so.
 */
import { describe, expect, it } from 'vitest';
import { heldNames, nameKey } from '../../src/core/resources/held-names.js';
import { twilioStandIn } from './twilio-stand-in.js';
import { expectConforms } from './conforms.js';

describe('the item property a request names otherwise', () => {
  it('is matched by letters and digits, case aside, only where exactly one item property fits', () => {
    expect(nameKey('FriendlyName')).toBe(nameKey('friendly_name'));
    expect([...heldNames(['FriendlyName', 'EventCallbackUrl', 'name'], ['friendly_name', 'event_callback_url', 'name'])]).toEqual([
      ['FriendlyName', 'friendly_name'],
      ['EventCallbackUrl', 'event_callback_url'],
    ]);
    // Two item properties of one key, or one the request also names itself: no guess.
    expect(heldNames(['FriendlyName'], ['friendly_name', 'friendly-name']).size).toBe(0);
    expect(heldNames(['FriendlyName', 'friendly_name'], ['friendly_name']).size).toBe(0);
  });
});

describe("Twilio TaskRouter's FriendlyName", () => {
  const { server, call } = twilioStandIn();

  it('is answered as friendly_name, read back, and filtered on', async () => {
    const created = await call('POST', '/v1/Workspaces', { FriendlyName: 'Support' });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({ friendly_name: 'Support' });
    expectConforms(server.current.document, 'post', '/v1/Workspaces', created);
    await call('POST', '/v1/Workspaces', { FriendlyName: 'Sales' });
    const sid = (created.json as { sid: string }).sid;
    expect((await call('GET', `/v1/Workspaces/${sid}`)).json).toMatchObject({ sid, friendly_name: 'Support' });
    const listed = await call('GET', '/v1/Workspaces?FriendlyName=Sales');
    expect((listed.json as { workspaces: { friendly_name: string }[] }).workspaces.map((item) => item.friendly_name)).toEqual(['Sales']);
  });
  it('is said back as friendly_name by a mocked update, and a first update does not hide the document’s broken example from later ones', async () => {
    const created = await call('POST', '/v1/Workspaces', { FriendlyName: 'Support' });
    const sid = (created.json as { sid: string }).sid;
    // UpdateWorkspace is mocked (Twilio updates by POST on the item). The first mocking decides, per status,
    // whether the document's example keeps to its schema: its event_callback_url "" does not (format uri).
    const first = await call('POST', `/v1/Workspaces/${sid}`, { FriendlyName: 'Sales', EventCallbackUrl: 'https://example.com/events' });
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ friendly_name: 'Sales', event_callback_url: 'https://example.com/events' });
    expectConforms(server.current.document, 'post', '/v1/Workspaces/{Sid}', first);
    const empty = await call('POST', `/v1/Workspaces/${sid}`, {});
    expect(empty.status, empty.text).toBe(200);
    expectConforms(server.current.document, 'post', '/v1/Workspaces/{Sid}', empty);
  });
});
