/**
 * The inspector's static files over real HTTP: served at /__inspector without the admin token (the
 * page holds no data), locked down by a Content-Security-Policy, and shipped in the package: found
 * from the built dist/ as from src/, and listed by `npm pack`.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { lazyInspectorPage, loadInspectorPage } from '../../src/inspector/page.js';
import { send, serverFor } from '../support/server.js';

const ADMIN = 'page-admin-token';

describe('GET /__inspector', () => {
  const server = serverFor({ adminToken: ADMIN });

  test('answers the page without the admin token, which it never contains', async () => {
    for (const path of ['/__inspector', '/__inspector/', '/__inspector/index.html']) {
      const reply = await send(`${server.current.url}${path}`);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.text).toContain('<script type="module" src="/__inspector/inspector.js"></script>');
      expect(reply.text).not.toContain(ADMIN);
    }
  });

  test('serves its modules and styles with their types, under a CSP that allows only this origin', async () => {
    const script = await send(`${server.current.url}/__inspector/inspector.js`);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect((await send(`${server.current.url}/__inspector/api.js`)).text).toContain('/__control/journal/events');
    expect((await send(`${server.current.url}/__inspector/inspector.css`)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  test('answers no other file and no other method, and leaves the API its paths', async () => {
    const missing = await send(`${server.current.url}/__inspector/../package.json`);
    expect(missing.status).toBe(404);
    expect((await send(`${server.current.url}/__inspector/nothing.js`)).text).toBe('the inspector has no file /__inspector/nothing.js; open /__inspector');
    const post = await send(`${server.current.url}/__inspector`, { method: 'POST', body: 'x' });
    expect({ status: post.status, allow: post.headers.allow }).toEqual({ status: 405, allow: 'GET, HEAD' });
    const head = await send(`${server.current.url}/__inspector`, { method: 'HEAD' });
    expect({ status: head.status, text: head.text }).toEqual({ status: 200, text: '' });
    // Not under the prefix: the API answers (its own 404).
    expect((await send(`${server.current.url}/__inspectors`)).json).toMatchObject({ error: 404 });
  });
});

describe('the page in the package', () => {
  test('is read at its first request, not at start; a page missing from the package is a 500 that says so', () => {
    let loads = 0;
    const page = lazyInspectorPage(() => {
      loads += 1;
      return loadInspectorPage();
    });
    expect(page.answer('GET', '/plants')).toBeUndefined();
    expect(loads).toBe(0);
    expect(page.answer('GET', '/__inspector')?.status).toBe(200);
    expect(page.answer('GET', '/__inspector/journal.js')?.status).toBe(200);
    expect(loads).toBe(1);
    const missing = lazyInspectorPage(() => loadInspectorPage('/nonexistent/inspector-page'));
    const answer = missing.answer('GET', '/__inspector');
    expect(answer?.status).toBe(500);
    expect(answer?.body.toString()).toContain('/nonexistent/inspector-page');
  });

  test('is found from the built dist/ as from src/', async () => {
    // dist/ is built by the test setup (test/build-once.ts); tsc does not copy the page there.
    const built: string = resolve('dist/src/inspector/page.js');
    const { loadInspectorPage } = (await import(built)) as typeof import('../../src/inspector/page.js');
    expect(loadInspectorPage().answer('GET', '/__inspector/journal.js')?.status).toBe(200);
  });

  test('is listed by npm pack', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((file) => file.path) ?? [];
    for (const name of ['index.html', 'inspector.js', 'api.js', 'journal.js', 'panels.js', 'inspector.css']) {
      expect(files).toContain(`src/inspector/page/${name}`);
    }
    expect(files).toContain('dist/src/inspector/page.js');
  }, 30_000);
});
