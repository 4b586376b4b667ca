import { describe, expect, test } from 'vitest';
import { journalToHar, type Har } from '../../src/control/har.js';
import { createJournal } from '../../src/journal/journal.js';
import { tenantOfToken } from '../../src/store/tenants.js';
import { journalEntry, journalRecord } from '../support/control.js';

const CREATOR = { name: 'plantstore', version: '0.1.0' };

/** The fields HAR 1.2 requires, with their types (http://www.softwareishard.com/blog/har-12-spec/). */
function expectHar12(har: unknown): asserts har is Har {
  const nameValues = expect.arrayContaining([]) as unknown;
  expect(har).toEqual({ log: { version: '1.2', creator: { name: expect.any(String), version: expect.any(String) }, entries: expect.any(Array) } });
  for (const entry of (har as Har).log.entries) {
    expect(entry).toMatchObject({
      startedDateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/),
      time: expect.any(Number),
      request: {
        method: expect.any(String),
        url: expect.stringMatching(/^https?:\/\//),
        httpVersion: expect.any(String),
        cookies: [],
        headers: nameValues,
        queryString: nameValues,
        headersSize: -1,
        bodySize: expect.any(Number),
      },
      response: {
        status: expect.any(Number),
        statusText: expect.any(String),
        httpVersion: expect.any(String),
        cookies: [],
        headers: nameValues,
        content: { size: expect.any(Number), mimeType: expect.any(String) },
        redirectURL: expect.any(String),
        headersSize: -1,
        bodySize: expect.any(Number),
      },
      cache: {},
      timings: { send: expect.any(Number), wait: expect.any(Number), receive: expect.any(Number) },
    });
    // HAR: the entry's time is the sum of its timings.
    expect(entry.time).toBeCloseTo(entry.timings.send + entry.timings.wait + entry.timings.receive);
    for (const pair of [...entry.request.headers, ...entry.request.queryString, ...entry.response.headers]) {
      expect(Object.keys(pair).sort()).toEqual(['name', 'value']);
      expect(typeof pair.value).toBe('string');
    }
    // Custom fields must start with an underscore.
    const standard = ['pageref', 'startedDateTime', 'time', 'request', 'response', 'cache', 'timings', 'serverIPAddress', 'connection', 'comment'];
    for (const key of Object.keys(entry)) if (!standard.includes(key)) expect(key).toMatch(/^_/);
  }
}

describe('journalToHar', () => {
  test('an empty journal is an empty, valid log naming its creator', () => {
    const har = journalToHar([], CREATOR);
    expectHar12(har);
    expect(har.log).toEqual({ version: '1.2', creator: CREATOR, entries: [] });
  });

  test('a created plant: absolute URL, name/value headers, postData, content, timings, and the journal facts as custom fields', () => {
    const journal = createJournal();
    journal.record(journalRecord({ query: 'dry=1&tag=a%20b', durationMs: 3.25 }));
    const har = journalToHar(journal.entries(), CREATOR);
    expectHar12(har);
    const [entry] = har.log.entries;
    expect(entry).toEqual({
      startedDateTime: '2026-01-05T09:30:00.000Z',
      time: 3.25,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:4010/plants?dry=1&tag=a%20b',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'host', value: '127.0.0.1:4010' },
          { name: 'authorization', value: 'Bearer ***' },
          { name: 'content-type', value: 'application/json' },
        ],
        queryString: [
          { name: 'dry', value: '1' },
          { name: 'tag', value: 'a b' },
        ],
        postData: { mimeType: 'application/json', text: '{"name":"Monstera","id":1}' },
        headersSize: -1,
        bodySize: 26,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [
          { name: 'content-type', value: 'application/json' },
          { name: 'content-length', value: '19' },
        ],
        content: { size: 19, mimeType: 'application/json', text: '{"name":"Monstera"}' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 19,
      },
      cache: {},
      timings: { send: 0, wait: 3.25, receive: 0 },
      _sequence: 1,
      _tenant: 'shared',
      _operation: 'createPlant',
      _validation: { ok: true },
    });
  });

  test('a GET without a body has no postData; an empty answer has no content text', () => {
    const har = journalToHar(
      [journalEntry(journalRecord({ method: 'GET', requestBody: '', responseBody: '', status: 204, operation: undefined, validation: undefined }))],
      CREATOR,
    );
    expectHar12(har);
    const [entry] = har.log.entries;
    expect(entry?.request).not.toHaveProperty('postData');
    expect(entry?.request.bodySize).toBe(0);
    expect(entry?.response.content).toEqual({ size: 0, mimeType: 'application/json' });
    expect(entry).not.toHaveProperty('_operation');
  });

  test('a dropped connection (status 0) and a cut body are said so in comments; faults and tenants are kept', () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000), id: 1 });
    const journal = createJournal();
    journal.record({
      ...journalRecord({ tenant: tenantOfToken('alice'), status: 0, fault: 'latency+reset' }),
      request: { headers: { host: 'localhost:4010', 'content-type': 'application/json' }, body: big },
      response: { headers: {}, body: '' },
    });
    const har = journalToHar(journal.entries(), CREATOR);
    expectHar12(har);
    const [entry] = har.log.entries;
    expect(entry?.response).toMatchObject({
      status: 0,
      statusText: '',
      content: { size: 0, mimeType: 'x-unknown' },
      comment: expect.stringContaining('latency+reset'),
    });
    expect(entry?.request.bodySize).toBe(Buffer.byteLength(big));
    expect(entry?.request.postData).toMatchObject({ text: big.slice(0, 4096), comment: expect.stringContaining(`${Buffer.byteLength(big)}-byte body`) });
    expect(entry).toMatchObject({ _fault: 'latency+reset', _tenant: tenantOfToken('alice') });
  });

  test('a refused request keeps its validation verdict and status text', () => {
    const har = journalToHar(
      [
        {
          ...journalEntry(journalRecord({ status: 422, validation: { ok: false, error: 422, message: "body must have required property 'name'" } })),
          sequence: 7,
        },
      ],
      CREATOR,
    );
    expectHar12(har);
    expect(har.log.entries[0]).toMatchObject({ _sequence: 7, response: { statusText: 'Unprocessable Entity' }, _validation: { ok: false, error: 422 } });
  });

  test('is plain JSON: serialising and parsing it changes nothing', () => {
    const journal = createJournal();
    journal.record(journalRecord());
    const har = journalToHar(journal.entries(), CREATOR);
    expect(JSON.parse(JSON.stringify(har))).toEqual(har);
  });
});

describe('journalToHar: credentials', () => {
  test('cookies and Set-Cookie lines show names and attributes, never values; credential query parameters are masked in url and queryString', () => {
    const journal = createJournal();
    journal.record(
      journalRecord({
        query: 'token=SECRET-q&page=2',
        request: { headers: { host: '127.0.0.1:4010', authorization: 'Digest username="SECRET-user"', cookie: 'sid=SECRET-sid; lang=en' }, body: '' },
        response: {
          headers: {
            'content-type': 'application/json',
            'set-cookie': ['sid=SECRET-new; Path=/; HttpOnly', 'seen=SECRET-seen; Expires=Wed, 21 Oct 2026 07:28:00 GMT'],
          },
          body: '{}',
        },
      }),
    );
    const har = journalToHar(journal.entries(), CREATOR);
    const text = JSON.stringify(har);
    expect(text).not.toContain('SECRET');
    const [entry] = har.log.entries;
    expect(entry?.request.url).toBe('http://127.0.0.1:4010/plants?token=***&page=2');
    expect(entry?.request.queryString).toEqual([
      { name: 'token', value: '***' },
      { name: 'page', value: '2' },
    ]);
    expect(entry?.request.cookies).toEqual([
      { name: 'sid', value: '***' },
      { name: 'lang', value: '***' },
    ]);
    expect(entry?.request.headers).toContainEqual({ name: 'authorization', value: 'Digest ***' });
    expect(entry?.response.cookies).toEqual([
      { name: 'sid', value: '***' },
      { name: 'seen', value: '***' },
    ]);
    expect(entry?.response.headers).toContainEqual({ name: 'set-cookie', value: 'sid=***; Path=/; HttpOnly, seen=***; Expires=Wed, 21 Oct 2026 07:28:00 GMT' });
  });
});
