/**
 * Twilio's TaskRouter declares each sid as a string of a pattern (`^WS[0-9a-fA-F]{32}$`, 34 long,
 * WK… for a Worker): the stand-in's server-made sid keeps it, so the create's answer conforms, and
 * a Worker created under the Workspace's sid is accepted (its path parameter has that pattern too).
 * The sid was the allocation number ("1") before: the answer broke its schema and the child's
 * create was refused with a 400.
 */
import { describe, expect, it } from 'vitest';
import { twilioStandIn } from './twilio-stand-in.js';
import { expectConforms } from './conforms.js';

describe('Twilio TaskRouter: server-made sids keep their pattern', () => {
  const { server, call } = twilioStandIn();

  it('creates a Workspace with a WS sid, a Worker under it, and reads the Workspace by its sid', async () => {
    const workspace = await call('POST', '/v1/Workspaces', { FriendlyName: 'support' });
    expect(workspace.status, workspace.text).toBe(201);
    const sid = (workspace.json as { sid: string }).sid;
    expect(sid).toMatch(/^WS[0-9a-fA-F]{32}$/);
    expectConforms(server.current.document, 'post', '/v1/Workspaces', workspace);

    const worker = await call('POST', `/v1/Workspaces/${sid}/Workers`, { FriendlyName: 'alice' });
    expect(worker.status, worker.text).toBe(201);
    expect((worker.json as { sid: string }).sid).toMatch(/^WK[0-9a-fA-F]{32}$/);
    expectConforms(server.current.document, 'post', '/v1/Workspaces/{WorkspaceSid}/Workers', worker);

    const read = await call('GET', `/v1/Workspaces/${sid}`);
    expect(read.status, read.text).toBe(200);
    expect((read.json as { sid: string }).sid).toBe(sid);
    expectConforms(server.current.document, 'get', '/v1/Workspaces/{Sid}', read);
  });

  it('gives each Workspace its own sid', async () => {
    const sids = new Set<string>();
    for (let i = 0; i < 5; i++) sids.add(((await call('POST', '/v1/Workspaces', { FriendlyName: `w${i}` })).json as { sid: string }).sid);
    expect(sids.size).toBe(5);
  });
});
