/**
 * A site given as what builds it (the control API, built at its first request so a start need not
 * load it): built once however many requests wait for it, and a failure to build it is answered
 * 500 and logged, the other site unaffected. Real node:http server on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply, Stage } from '../../src/http/context.js';
import { createRequestHandler, type Sites } from '../../src/http/pipeline.js';
import type { CompiledSite } from '../../src/http/site.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { send } from '../support/server.js';

const answering = (text: string): CompiledSite => {
  const reply: Reply = { kind: 'answer', answer: { status: 200, headers: { 'content-type': 'text/plain' }, body: text } };
  const stage: Stage<unknown> = { name: 'handle', run: () => reply };
  return { stages: [stage], onResponse: [], cors: false, exposedHeaders: '', bodyBudget: undefined, prepare: [] };
};

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serving(sites: Sites, logger: Logger): Promise<string> {
  server = createServer(createRequestHandler(sites, logger));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a site built at its first request', () => {
  it('is built once, for every request that waits for it; the other site answers meanwhile', async () => {
    let builds = 0;
    const control = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return answering('control');
    };
    let built: Promise<CompiledSite> | undefined;
    const url = await serving({ api: answering('api'), control: () => (built ??= control()), controlPrefix: '/__control' }, createLogger('silent'));
    const answers = await Promise.all([send(`${url}/__control/health`), send(`${url}/__control`), send(`${url}/plants`)]);
    expect(answers.map((answer) => answer.text)).toEqual(['control', 'control', 'api']);
    expect((await send(`${url}/__control/journal`)).text).toBe('control');
    expect(builds).toBe(1);
  });

  it('a failure to build it is answered 500 and logged; the API still answers', async () => {
    const errors: string[] = [];
    const logger = { ...createLogger('silent'), error: (message: string) => errors.push(message) };
    const url = await serving(
      { api: answering('api'), control: () => Promise.reject(new Error('the control document is missing')), controlPrefix: '/__control' },
      logger,
    );
    const refused = await send(`${url}/__control/health`);
    expect(refused.status).toBe(500);
    expect(refused.json).toMatchObject({ error: 500 });
    expect(errors.join('\n')).toContain('the control document is missing');
    expect((await send(`${url}/plants`)).text).toBe('api');
  });
});
