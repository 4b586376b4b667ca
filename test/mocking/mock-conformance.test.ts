/**
 * A mocked answer's declared headers keep to their schemas (src/handlers/mock-conformance.ts): prism's
 * static mocker wrote a boolean header as "null", so serve of Eclipse Ditto's document failed verify's
 * response-headers-conformance on every read of a thing's parts.
 * Its static body ignores a pattern too ("string"): a generated one that keeps to it is sent instead.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('./documents/mock-conformance.yaml', import.meta.url));

describe('a mocked answer’s declared headers', () => {
  const server = serverFor({ spec: DOCUMENT, logLevel: 'silent' });

  it('are each a value of their schema, a required one included', async () => {
    const reply = await send(`${server.current.url}/things/t-1/definition`);
    expect(reply.status).toBe(200);
    expect(reply.headers['live-channel-condition-matched']).toMatch(/^(true|false)$/);
    expect(reply.headers.channel).toEqual(expect.any(String));
    expect(Number(reply.headers['x-revision'])).toBeGreaterThanOrEqual(1);
    expect(Number.isNaN(Number(reply.headers['x-ratio'] ?? '1'))).toBe(false);
  });

  it('come with a body of the declared pattern, generated where prism’s static value breaks it', async () => {
    for (let round = 0; round < 3; round++) {
      const reply = await send(`${server.current.url}/things/t-${round}/definition`);
      expect(reply.json).toMatch(/^[_a-zA-Z0-9.-]+:[_a-zA-Z0-9.-]+:[_a-zA-Z0-9.-]+$/);
    }
  });

  it('pass verify’s judging of answer headers and bodies', async () => {
    const report = await verify({ target: server.current.url, spec: DOCUMENT, runs: 20, seed: 27, timeoutMs: 5_000 });
    expect(report.checks.find((check) => check.id === 'response-headers-conformance')?.status).toBe('passed');
    expect(report.checks.find((check) => check.id === 'response-schema-conformance')?.status).toBe('passed');
  }, 60_000);
});
