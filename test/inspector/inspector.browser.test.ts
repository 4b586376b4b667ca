/**
 * The inspector page in a real headless Chromium (issue 11's "done when"): behind --admin-token it
 * asks for the token, then shows, live and without a reload, a plant created over HTTP and a refused
 * request with its reason (error code and message); filters to failures, opens an entry with its
 * curl, and one action works from the keyboard alone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, SKIP_BROWSER, type Browser } from '../support/chromium.mjs';
import { postPlant, send, serverFor, VALID_HEADERS } from '../support/server.js';

const ADMIN = 'admin-secret-7d1f';
const BIG_ID = '9007199254740993';

describe.skipIf(SKIP_BROWSER)('the inspector page in Chromium', () => {
  const server = serverFor({ adminToken: ADMIN });
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  test('asks for the admin token, keeps it out of the URL, then goes live', async () => {
    await page.goto(`${server.current.url}/__inspector`);
    const prompt = page.getByLabel('Admin token');
    await prompt.waitFor({ state: 'visible' });
    await prompt.fill(ADMIN);
    await prompt.press('Enter');
    await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).toBe('Live');
    expect(await page.locator('#token').isHidden()).toBe(true);
    expect(page.url()).not.toContain(ADMIN);
    await expect.poll(() => page.locator('#served').textContent()).toMatch(/^Serving Plant Store 1\.0\.0 · \d+ items? · \d+ tenants?$/);
  });

  test('shows a created plant (its id exact) and a refusal with its reason, live', async () => {
    const created = await postPlant(server.current.url, `{"id":${BIG_ID},"name":"Monstera deliciosa","tag":"aroid"}`);
    expect(created.status).toBe(200);
    const refused = await postPlant(server.current.url, { id: 2, tag: 'no name' });
    expect(refused.status).toBe(400);
    const reason = `error 422: ${(refused.json as { message: string }).message}`;
    expect(reason).toContain("required property 'name'");

    const items = page.locator('#items tbody tr');
    await expect.poll(() => items.allTextContents(), { timeout: 10_000 }).toEqual([`${BIG_ID}Monstera deliciosaaroidDelete`]);
    const refusalRow = page.locator('#entries tbody tr', { hasText: 'POST /plants' }).filter({ hasText: '400' });
    await expect.poll(() => refusalRow.locator('.reasons').allTextContents()).toEqual([reason]);
    expect(await page.locator('#entries tbody tr').count()).toBe(2);
  });

  test('creates an item from the page, its id one past the largest, exactly', async () => {
    const proposal = JSON.parse((await page.getByLabel('New item').inputValue()).replace(/(\d{16,})/g, '"$1"')) as Record<string, string>;
    expect(proposal).toEqual({ id: '9007199254740994', name: 'Monstera deliciosa', tag: 'aroid' });
    await page.getByLabel('New item').fill('{"id": 9007199254740994, "name": "Golden pothos"}');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.locator('#items tbody tr').allTextContents())
      .toEqual([`${BIG_ID}Monstera deliciosaaroidDelete`, '9007199254740994Golden pothosDelete']);
    expect(await page.locator('#resources-status').textContent()).toBe('Created plants');
    const stored = await send(`${server.current.url}/__control/plants`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(stored.text).toContain('{"id":9007199254740994,"name":"Golden pothos"}');
  });

  test('adds a fault from the page, and names it on the answer it shaped', async () => {
    await page.getByLabel('New fault').fill('{"kind":"status","status":503,"operation":"createPlant","times":1,"message":"down for the test"}');
    await page.getByRole('button', { name: 'Add fault' }).click();
    const faults = page.locator('#fault-list tbody tr');
    await expect.poll(() => faults.count(), { timeout: 10_000 }).toBe(1);
    expect(await faults.first().textContent()).toContain('createPlant');
    expect((await postPlant(server.current.url, { id: 3, name: 'Fern' })).status).toBe(503);
    const faulted = page.locator('#entries tbody tr').filter({ hasText: '503' });
    await expect.poll(() => faulted.locator('.reasons li').allTextContents()).toEqual(['fault: status', 'error 503: down for the test']);
    // Used up (times: 1), it leaves the faults panel.
    await expect.poll(() => faults.count()).toBe(0);
  });

  test('filters to failures only, and opens an entry with its request, response and curl', async () => {
    await page.getByLabel('Failures only').check();
    const rows = page.locator('#entries tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.allTextContents()).not.toContainEqual(expect.stringContaining('Monstera'));
    await page.getByLabel('Status').selectOption('4');
    await expect.poll(() => rows.count()).toBe(1);

    await rows
      .first()
      .getByRole('button', { name: /^Open request/ })
      .click();
    const detail = page.locator('#entry');
    await expect.poll(() => detail.isVisible()).toBe(true);
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain('"tag": "no name"');
    expect(text).toContain("required property 'name'");
    const curl = (await detail.locator('pre.curl').textContent()) ?? '';
    expect(curl).toContain(`curl -X POST '${server.current.url}/plants'`);
    // The journal masks the API token; curl leaves it to the shell.
    expect(curl).toContain('-H "authorization: Bearer $TOKEN"');
    expect(curl).toContain(`--data-raw '{"id":2,"tag":"no name"}'`);
    expect(await page.locator(':focus').getAttribute('id')).toBe('entry-title');

    await page.getByLabel('Failures only').uncheck();
    await page.getByLabel('Status').selectOption('');
    await expect.poll(() => rows.count()).toBe(3);
  });

  test('deletes a plant from the keyboard alone, with the focus visible', async () => {
    const target = `Delete plants ${BIG_ID}`;
    let reached = false;
    for (let presses = 0; presses < 100 && !reached; presses += 1) {
      await page.keyboard.press('Tab');
      reached = (await page.locator(':focus').getAttribute('aria-label')) === target;
    }
    expect(reached, `Tab never reached the "${target}" button`).toBe(true);
    // Evaluated as text in the page: this file is type-checked without the DOM's types.
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#items tbody tr').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('#resources-status').textContent()).toBe(`Deleted ${BIG_ID}`);
    const stored = await send(`${server.current.url}/__control/plants`, { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(stored.text).toBe('[{"id":9007199254740994,"name":"Golden pothos"}]');
  });

  test('never shows the admin token', async () => {
    expect(await page.content()).not.toContain(ADMIN);
    expect(VALID_HEADERS.authorization).toBeDefined();
    expect(await page.content()).not.toContain(VALID_HEADERS.authorization!.slice('Bearer '.length));
  });
});
