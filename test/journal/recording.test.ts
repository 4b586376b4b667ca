import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { postPlant, serverFor, plantText, send } from '../support/server.js';
import { startServer } from '../../src/index.js';

describe('request journal', () => {
  const server = serverFor({ tokens: ['s3cret-token'] });
  const headers = { authorization: 'Bearer s3cret-token', 'content-type': 'application/json' };

  it('records each request: operation, status, validation outcome, masked credentials', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Monstera', id: 1 }), headers);
    await postPlant(server.current.url, '{"name": 3, "id": 2}', headers);
    await postPlant(server.current.url, plantText({ name: 'Monstera', id: 1 }), { ...headers, authorization: 'Bearer wrong' });
    const [created, invalid, refused] = server.current.journal.entries();
    expect(created).toMatchObject({ operation: 'createPlant', method: 'POST', path: '/plants', status: 200, validation: { ok: true } });
    expect(created?.request.body).toBe('{"name":"Monstera","id":1}');
    expect(created?.response.body).toBe('{"name":"Monstera"}');
    expect(invalid).toMatchObject({ status: 400, validation: { ok: false, error: 422 } });
    expect(invalid?.validation).toMatchObject({ message: expect.stringContaining('name') });
    // Refused before validation: no outcome recorded, and the token never appears.
    expect(refused?.validation).toBeUndefined();
    for (const entry of server.current.journal.entries()) {
      expect(JSON.stringify(entry)).not.toContain('s3cret');
      expect(JSON.stringify(entry)).not.toContain('wrong');
      expect(entry.request.headers.authorization).toBe('Bearer ***');
    }
  });

  it('answers "exactly one createPlant with name X was received"', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Fern', id: 10 }), headers);
    await postPlant(server.current.url, plantText({ name: 'Cactus', id: 11 }), headers);
    await postPlant(server.current.url, plantText({ name: 'Fern', tag: 'x', id: 12 }), headers);
    expect(server.current.journal.received('createPlant', { name: 'Cactus' })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { name: 'Fern' })).toHaveLength(2);
    expect(server.current.journal.received('createPlant', { name: 'Fern', tag: 'x' })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { id: 11 })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { name: 'Rose' })).toHaveLength(0);
  });

  it('matches int64 ids exactly beyond 2^53', async () => {
    server.current.journal.clear();
    await postPlant(server.current.url, plantText({ name: 'Big', id: '9007199254740993' }), headers);
    expect(server.current.journal.received('createPlant', { id: 9007199254740993n })).toHaveLength(1);
    expect(server.current.journal.received('createPlant', { id: 9007199254740992n })).toHaveLength(0);
  });

  it('keeps only the last N entries and truncates large bodies', async () => {
    const small = await startServer({ port: 0, journalSize: 3 });
    try {
      for (let id = 1; id <= 5; id += 1) await postPlant(small.url, plantText({ name: 'x'.repeat(id === 5 ? 10_000 : 1), id }));
      const entries = small.journal.entries();
      expect(entries.map((entry) => entry.sequence)).toEqual([3, 4, 5]);
      expect(entries[2]?.request.truncated).toBe(true);
      expect(entries[2]?.request.bodySize).toBeGreaterThan(10_000);
      expect(entries[2]?.request.body.length).toBeLessThan(5_000);
      expect(small.journal.entries({ limit: 1 })).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('records unrouted requests too, without an operation', async () => {
    server.current.journal.clear();
    await send(`${server.current.url}/nowhere`);
    expect(server.current.journal.entries()).toMatchObject([{ status: 404, path: '/nowhere' }]);
    expect(server.current.journal.entries()[0]?.operation).toBeUndefined();
  });
});

describe('no credential reaches the journal, the HAR or the log in clear', () => {
  // The Plant Store (bearer) plus an operation secured by API keys in a header, a query
  // parameter and a cookie: what the document declares is masked, beside well-known names.
  const plantStore = parseYaml(readFileSync(fileURLToPath(new URL('../../spec/plant-store.yaml', import.meta.url)), 'utf8')) as Record<string, any>;
  const document = {
    ...plantStore,
    components: {
      ...plantStore.components,
      securitySchemes: {
        ...plantStore.components.securitySchemes,
        plantKey: { type: 'apiKey', in: 'header', name: 'X-Plant-Key' },
        plantQuery: { type: 'apiKey', in: 'query', name: 'plant_key' },
        plantCookie: { type: 'apiKey', in: 'cookie', name: 'plant_session' },
      },
    },
    paths: {
      ...plantStore.paths,
      '/greenhouse': {
        get: {
          operationId: 'getGreenhouse',
          security: [{ plantKey: [] }, { plantQuery: [] }, { plantCookie: [] }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' }, example: { open: true } } } } },
        },
      },
    },
  };
  const lines: string[] = [];
  const server = serverFor({ spec: document, tokens: ['SECRET-valid-bearer'], logLevel: 'debug', log: (line) => lines.push(line) });
  const json = { 'content-type': 'application/json' };
  const body = plantText({ name: 'Secretive', id: 1 });

  it('masks every position, valid and malformed, and says what kind of credential it was', async () => {
    const url = server.current.url;
    await postPlant(url, body, { ...json, authorization: 'Bearer SECRET-valid-bearer' });
    await postPlant(url, body, { ...json, authorization: 'Bearer SECRET-wrong-bearer' });
    await postPlant(url, body, { ...json, authorization: 'SECRETbareT0ken' });
    await postPlant(url, body, { ...json, authorization: 'SECRETfirstWord x' });
    await postPlant(url, body, { ...json, authorization: `Basic ${Buffer.from('user:SECRET-basic').toString('base64')}` });
    await postPlant(
      url,
      plantText({ name: 'Queried', id: 2 }),
      { ...json, authorization: 'Bearer SECRET-valid-bearer', 'proxy-authorization': 'SECRET-proxy' },
      '/plants?access_token=SECRET-access-token&api_key=SECRET-api-key&name=visible',
    );
    await send(`${url}/greenhouse?plant_key=SECRET-declared-query&token=SECRET-token-query`, {
      headers: {
        // The configured token: --token restricts API keys too.
        'x-plant-key': 'SECRET-valid-bearer',
        'x-api-key': 'SECRET-x-api-key',
        cookie: 'plant_session=SECRET-declared-cookie; theme=SECRET-other-cookie',
      },
    });

    const journalText = (await send(`${url}/__control/journal`)).text;
    const harText = (await send(`${url}/__control/journal/har`)).text;
    const apiText = JSON.stringify(server.current.journal.entries());
    expect(lines.length).toBeGreaterThan(0);
    for (const [where, text] of [
      ['journal', journalText],
      ['har', harText],
      ['journal API', apiText],
      ['log', lines.join('\n')],
    ] as const) {
      expect(text, where).not.toMatch(/SECRET|dXNlcjpTRUNSRVQtYmFzaWM/);
    }

    const entries = server.current.journal.entries();
    expect(entries.map((entry) => entry.request.headers.authorization)).toEqual([
      'Bearer ***',
      'Bearer ***',
      '***',
      '***',
      'Basic ***',
      'Bearer ***',
      undefined,
    ]);
    // The refusal names a scheme only when it is a registered one, never a word the client sent.
    expect(entries.map((entry) => (JSON.parse(entry.response.body || '{}') as { message?: string }).message)).toEqual([
      undefined,
      'the bearer token is not one this server accepts',
      'the Authorization header is not "Bearer <token>"',
      'the Authorization header is not "Bearer <token>"',
      'the Authorization header is "Basic"; this API uses Bearer',
      undefined,
      undefined,
    ]);
    const [, , , , , queried, greenhouse] = entries;
    expect(queried?.request.headers['proxy-authorization']).toBe('***');
    expect(queried?.query).toBe('access_token=***&api_key=***&name=visible');
    expect(greenhouse).toMatchObject({ status: 200, query: 'plant_key=***&token=***' });
    expect(greenhouse?.request.headers).toMatchObject({ 'x-plant-key': '***', 'x-api-key': '***', cookie: 'plant_session=***; theme=***' });

    const har = JSON.parse(harText) as { log: { entries: Array<{ request: { url: string; queryString: unknown; cookies: unknown } }> } };
    const harGreenhouse = har.log.entries[6]?.request;
    expect(harGreenhouse?.url).toBe(`${url}/greenhouse?plant_key=***&token=***`);
    expect(harGreenhouse?.queryString).toEqual([
      { name: 'plant_key', value: '***' },
      { name: 'token', value: '***' },
    ]);
    expect(harGreenhouse?.cookies).toEqual([
      { name: 'plant_session', value: '***' },
      { name: 'theme', value: '***' },
    ]);
  });
});

describe('the journal is bounded by bytes as well as by count', () => {
  const server = serverFor({ journalSize: 1000, journalBytes: 20_000 });

  it('drops the oldest entries once the bodies it keeps pass journalBytes (seen over the control API)', async () => {
    // Each create keeps ~2,030 request and ~2,015 response body bytes: four fit in 20,000, not five.
    for (let id = 1; id <= 8; id += 1) await postPlant(server.current.url, plantText({ name: `${id}`.padEnd(2_000, 'x'), id }));
    const kept = (await send(`${server.current.url}/__control/journal`)).json as Array<{ sequence: number; request: { bodySize: number } }>;
    expect(kept.map((entry) => entry.sequence)).toEqual([5, 6, 7, 8]);
    // Small entries still fit beside them, up to the byte bound.
    for (let request = 0; request < 5; request += 1) await send(`${server.current.url}/nowhere`);
    const after = (await send(`${server.current.url}/__control/journal`)).json as Array<{ sequence: number }>;
    expect(after.map((entry) => entry.sequence)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('charges request headers too: a client can send 16 KiB of them with no body', async () => {
    await send(`${server.current.url}/__control/journal`, { method: 'DELETE' });
    for (let request = 0; request < 4; request += 1) await send(`${server.current.url}/nowhere`, { headers: { 'x-filler': 'h'.repeat(8_000) } });
    const kept = (await send(`${server.current.url}/__control/journal`)).json as Array<{ sequence: number; path: string }>;
    // ~8 KiB each against 20,000 bytes: the last two of the four.
    expect(kept.map((entry) => entry.path)).toEqual(['/nowhere', '/nowhere']);
    expect((kept[1]?.sequence ?? 0) - (kept[0]?.sequence ?? 0)).toBe(1);
    expect(server.current.journal.entries({ limit: 1 })[0]?.sequence).toBe(kept[1]?.sequence);
  });
});
