/**
 * A replace and an update whose bodies may carry the id the server assigned (Eclipse Ditto's things,
 * test/fixtures/documents/things-server-ids.yaml). verify sends such a body with the path's own id,
 * as it does where the client assigns ids (todo-items.test.ts): a correct server that refuses another
 * id in the body (serve) passes; one that takes a body id of the wrong type is still caught, since an
 * invalid id is sent as drawn.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startServer, type RunningServer } from '../../src/index.js';

const SPEC = fileURLToPath(new URL('../fixtures/documents/things-server-ids.yaml', import.meta.url));
const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_127);

let standIn: RunningServer | undefined;
let faulty: Server | undefined;
afterEach(async () => {
  await new Promise<void>((done) => (faulty === undefined ? done() : faulty.close(() => done())));
  await standIn?.close();
  faulty = undefined;
  standIn = undefined;
});

const flagged = (report: VerifyReport) =>
  report.checks.filter((check) => check.status === 'failed' || check.status === 'warned').map((check) => `${check.id}: ${check.findings[0]?.message ?? ''}`);

/** serve, except that a PUT or PATCH whose body's thingId is not a string is answered 204 unread. */
async function takingAnyThingId(target: string): Promise<string> {
  faulty = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const write = incoming.method === 'PUT' || incoming.method === 'PATCH';
      const thingId = write ? /"thingId"\s*:\s*([^",}\s][^,}]*)/.exec(body)?.[1] : undefined;
      if (thingId !== undefined && incoming.url !== undefined && /^\/things\/[^/]+$/.test(incoming.url)) {
        outgoing.writeHead(204).end();
        return;
      }
      const headers = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => name !== 'host' && name !== 'connection'));
      void request(`${target}${incoming.url ?? '/'}`, { method: incoming.method as 'GET', headers, body: chunks.length > 0 ? body : null }).then(
        async (answer) => {
          const text = await answer.body.text();
          outgoing.writeHead(answer.statusCode, answer.headers as Record<string, string>).end(text);
        },
        () => outgoing.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((listening) => faulty?.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(faulty.address() as AddressInfo).port}`;
}

describe('a body that may carry the id the server assigned', () => {
  it('a correct server passes: a replace or update names the path’s own item in its body', async () => {
    standIn = await startServer({ port: 0, spec: SPEC, logLevel: 'silent' });
    const report = await verify({ target: standIn.url, spec: SPEC, runs: 60, seed: SEED, stateful: true, timeoutMs: 5_000 });
    expect(flagged(report)).toEqual([]);
  }, 120_000);

  it('a server that takes a body id of the wrong type is caught: the invalid id is sent as drawn', async () => {
    standIn = await startServer({ port: 0, spec: SPEC, logLevel: 'silent' });
    const report = await verify({ target: await takingAnyThingId(standIn.url), spec: SPEC, runs: 60, seed: SEED, stateful: true, timeoutMs: 5_000 });
    const rejection = report.checks.find((check) => check.id === 'negative-rejection');
    expect(rejection?.status).toBe('failed');
    expect(rejection?.findings.map((finding) => finding.message).join('\n')).toMatch(/thingId/);
  }, 120_000);
});
