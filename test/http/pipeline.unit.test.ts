/** runStages: stages in order until one replies, a waiting stage settled with what it waited for. */
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { PASS, requestContext, type Reply, type Stage } from '../../src/http/context.js';
import { runStages } from '../../src/http/pipeline.js';

const arrived = { method: 'POST', url: '/plants?tag=fern', headers: { host: 'localhost' } } as unknown as IncomingMessage;
const NO_CONTENT: Reply = { kind: 'answer', answer: { status: 204, headers: {}, body: '' } };

describe('runStages', () => {
  test('runs the stages in order and names the one that replied; later stages do not run', async () => {
    const ran: string[] = [];
    const stages: Stage<unknown>[] = [
      { name: 'host', run: () => (ran.push('host'), PASS) },
      { name: 'route', run: () => (ran.push('route'), NO_CONTENT) },
      { name: 'handle', run: () => (ran.push('handle'), NO_CONTENT) },
    ];
    const context = requestContext(arrived);
    expect(await runStages(stages, context)).toBe(NO_CONTENT);
    expect(ran).toEqual(['host', 'route']);
    expect(context).toMatchObject({ answeredBy: 'route', method: 'POST', path: '/plants', query: 'tag=fern' });
  });

  test('a stage that waits is settled with what it waited for, and may pass', async () => {
    const body: Stage<Buffer> = {
      name: 'body',
      run: () => Promise.resolve(Buffer.from('{}')),
      settle(context, read) {
        context.body = read;
        return PASS;
      },
    };
    const context = requestContext(arrived);
    const reply = await runStages(
      [body, { name: 'handle', run: (seen) => ({ kind: 'answer', answer: { status: 200, headers: {}, body: seen.body.toString() } }) }],
      context,
    );
    expect(reply).toMatchObject({ kind: 'answer', answer: { status: 200, body: '{}' } });
    expect(context.answeredBy).toBe('handle');
  });

  test('a throwing stage rejects (the handler answers 500), and stages that never reply are a defect', async () => {
    const context = requestContext(arrived);
    await expect(
      runStages(
        [
          {
            name: 'validate',
            run: () => {
              throw new Error('boom');
            },
          },
        ],
        context,
      ),
    ).rejects.toThrow('boom');
    await expect(runStages([{ name: 'host', run: () => PASS }], requestContext(arrived))).rejects.toThrow('no stage answered POST /plants');
  });
});
