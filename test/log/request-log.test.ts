/**
 * A request's log line says why it was refused (the error table's code and the Error's message),
 * never a credential; --log-format json writes one object per line; debug adds every violation.
 */
import { describe, expect, it } from 'vitest';
import { JSON_TYPE, plantText, postPlant, send, serverFor, VALID_HEADERS } from '../support/server.js';

const BAD_TOKEN = 'wrong-secret-8d2f';

describe('--log-format text (the default)', () => {
  const lines: string[] = [];
  const server = serverFor({ tokens: ['good-secret-41'], logLevel: 'info', log: (line) => lines.push(line) });
  const lineFor = (pattern: RegExp) => lines.find((line) => pattern.test(line)) ?? `no line matches ${pattern}: ${lines.join('\n')}`;

  it('names the refusal of a bad token, and never the token', async () => {
    await postPlant(server.current.url, plantText({ name: 'a', id: 1 }), { ...JSON_TYPE, authorization: `Bearer ${BAD_TOKEN}` });
    expect(lineFor(/POST \/plants 400 /)).toMatch(/POST \/plants 400 \d+\.\d\dms PST_ERR_UNAUTHORIZED \S/);
    for (const line of lines) expect(line).not.toContain(BAD_TOKEN);
  });

  it('names a schema violation with its message', async () => {
    lines.length = 0;
    await postPlant(server.current.url, '{"name":7,"id":2}', { ...JSON_TYPE, authorization: 'Bearer good-secret-41' });
    expect(lineFor(/POST \/plants 400 /)).toMatch(/PST_ERR_SCHEMA_VIOLATION .*name/);
    for (const line of lines) expect(line).not.toContain('good-secret-41');
  });

  it('names an unknown path', async () => {
    lines.length = 0;
    await send(`${server.current.url}/plantz`);
    expect(lineFor(/GET \/plantz 404 /)).toContain('PST_ERR_NOT_FOUND');
  });

  it('adds nothing to an answered request', async () => {
    lines.length = 0;
    await postPlant(server.current.url, plantText({ name: 'b', id: 3 }), { ...JSON_TYPE, authorization: 'Bearer good-secret-41' });
    expect(lineFor(/POST \/plants 200 /)).toMatch(/POST \/plants 200 \d+\.\d\dms$/);
  });
});

describe('--log-level debug', () => {
  const lines: string[] = [];
  const server = serverFor({ logLevel: 'debug', log: (line) => lines.push(line) });

  it('lists every violation validation found under the line', async () => {
    await postPlant(server.current.url, '{"name":7,"tag":8,"id":"x"}');
    const at = lines.findIndex((line) => / POST \/plants 400 /.test(line));
    expect(at).toBeGreaterThanOrEqual(0);
    const details = lines.slice(at + 1).filter((line) => line.startsWith('  - '));
    expect(details.length).toBe(3);
    expect(details.join('\n')).toMatch(/name/);
    expect(details.join('\n')).toMatch(/tag/);
  });
});

describe('--log-format json', () => {
  const lines: string[] = [];
  const server = serverFor({ tokens: ['good-secret-41'], isolateByToken: true, logLevel: 'info', logFormat: 'json', log: (line) => lines.push(line) });

  it('writes one JSON object per request, with the refusal as error {code, message}', async () => {
    await postPlant(server.current.url, plantText({ name: 'a', id: 1 }), { ...JSON_TYPE, authorization: `Bearer ${BAD_TOKEN}` });
    await postPlant(server.current.url, plantText({ name: 'b', id: 2 }), { ...JSON_TYPE, authorization: 'Bearer good-secret-41' });
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const refused = records.find((record) => record.status === 400);
    expect(refused).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/plants',
      operation: 'createPlant',
      status: 400,
      error: { code: 'PST_ERR_UNAUTHORIZED', message: expect.any(String) },
    });
    expect(typeof refused?.durationMs).toBe('number');
    expect(Number.isNaN(Date.parse(String(refused?.time)))).toBe(false);
    const created = records.find((record) => record.status === 200);
    expect(created).toMatchObject({ operation: 'createPlant', tenant: expect.stringMatching(/^token:[0-9a-f]{16}$/) });
    expect(created).not.toHaveProperty('error');
    for (const line of lines) {
      expect(line).not.toContain(BAD_TOKEN);
      expect(line).not.toContain('good-secret-41');
    }
  });

  it('writes a fault it applied', async () => {
    lines.length = 0;
    const fault = server.current.faults.add({ kind: 'status', status: 503, times: 1 });
    await postPlant(server.current.url, plantText({ name: 'c', id: 3 }), VALID_HEADERS);
    const record = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
    expect(record).toMatchObject({ status: 503, fault: 'status', error: { code: 'PST_ERR_FORCED_STATUS' } });
    expect(server.current.faults.list().map((f) => f.id)).not.toContain(fault.id);
  });
});
