/**
 * prism's mocker is loaded in the background after start, also for a document whose only
 * operation is stateful: any request may carry a Prefer header, and the first one paid 1.35 s.
 */
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { serverFor } from '../support/server.js';

const require = createRequire(import.meta.url);
const MOCKER = require.resolve('@stoplight/prism-http/dist/mocker/index.js');

const server = serverFor();

it('has the mocker loaded a few seconds after start, before any request asked for it', async () => {
  expect(server.current.url).toMatch(/^http:/);
  const deadline = Date.now() + 15_000;
  while (require.cache[MOCKER] === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(require.cache[MOCKER]).toBeDefined();
}, 20_000);
