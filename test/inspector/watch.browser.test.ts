/**
 * The inspector shows serve --watch's last reload (issue 11: a broken document is "said why ... in
 * the inspector"): in a real Chromium, a broken save shows as refused with its reason, live
 * (without reloading the page), and the fixed save as taken.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundledSpecPath } from '../../src/core/openapi/load-document.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { launchChromium, SKIP_BROWSER, type Browser } from '../support/chromium.mjs';

/** A reload is noticed within 100 ms and the page asks health every 2 s; a loaded machine adds to both. */
const SHOWN_MS = 10_000;

describe.skipIf(SKIP_BROWSER)('the inspector shows --watch reloads', () => {
  let browser: Browser;
  let page: Page;
  let server: RunningServer;
  let dir: string;
  let file: string;
  let original: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plantstore-inspector-watch-'));
    file = join(dir, 'plant-store.yaml');
    original = await readFile(bundledSpecPath(), 'utf8');
    await writeFile(file, original);
    server = await startServer({ port: 0, spec: file, watch: true });
    browser = await launchChromium();
    page = await browser.context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('says it is watching, before the first change', async () => {
    await page.goto(`${server.url}/__inspector`);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: SHOWN_MS }).toBe('Live');
    expect(await page.locator('#reload').textContent()).toBe('Watching the document; no change yet');
  });

  test('shows a broken save as refused, with why, live', async () => {
    await writeFile(file, 'openapi: 3.0.3\ninfo: {title: Empty, version: "1"}\npaths: {}\n');
    const reload = page.locator('#reload');
    await expect
      .poll(() => reload.textContent(), { timeout: SHOWN_MS })
      .toMatch(/^Last reload refused at .+: .*no operations.*; still serving the last good document$/);
    expect(await reload.getAttribute('class')).toBe('bad');
    expect(await page.locator('#served').textContent()).toMatch(/^Serving Plant Store/);
  });

  test('shows the fixed save as taken', async () => {
    await writeFile(`${file}.tmp`, original);
    await rename(`${file}.tmp`, file);
    const reload = page.locator('#reload');
    await expect.poll(() => reload.textContent(), { timeout: SHOWN_MS }).toMatch(/^Reloaded at \d/);
    expect(await reload.getAttribute('class')).toBe('good');
  });

  test('shows the last reload on a fresh page too', async () => {
    await page.reload();
    await expect.poll(() => page.locator('#reload').textContent(), { timeout: SHOWN_MS }).toMatch(/^Reloaded at \d/);
  });
});
