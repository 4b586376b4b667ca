/**
 * The inspector's requests view in a real Chromium on documents that are not the Plant Store
 * (Redocly's Museum API and tickets, both answering application/problem+json): the reason of a
 * problem+json refusal, a detail panel with nothing undefined in it, the query string with its `?`,
 * a long URL that leaves the "why" column readable, and the focus back where it was on Close.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, SKIP_BROWSER, type Browser } from '../support/chromium.mjs';
import { send, serverFor } from '../support/server.js';

const DOCUMENTS = new URL('../fixtures/documents/', import.meta.url).pathname;
const SHOWN_MS = 10_000;
/** Any user and password: the museum's scheme is HTTP basic, and the stand-in has no tokens set. */
const BASIC = { authorization: `Basic ${Buffer.from('visitor:secret').toString('base64')}` };
const EVENT = '3be6453c-03eb-4357-ae5a-984a0e574a54';

/** What a problem+json answer says went wrong: its detail, else its title. */
function problemReason(json: unknown): string {
  const problem = json as { detail?: string; title?: string };
  const reason = problem.detail ?? problem.title;
  if (typeof reason !== 'string' || reason === '') throw new Error(`not a problem+json body with a reason: ${JSON.stringify(json)}`);
  return reason;
}

describe.skipIf(SKIP_BROWSER)('the requests view on documents other than the Plant Store, in Chromium', () => {
  const museum = serverFor({ spec: `${DOCUMENTS}museum.yaml` });
  const tickets = serverFor({ spec: `${DOCUMENTS}tickets.yaml` });
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    page = await browser.context.newPage();
    page.setDefaultTimeout(5000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const rows = () => page.locator('#entries tbody tr');
  /** The reasons shown in the row of the request answered `status` (one such request per page). */
  const whyOf = (status: number) =>
    rows()
      .filter({ has: page.locator('td.status', { hasText: new RegExp(`^${status}$`) }) })
      .locator('.reasons li')
      .allTextContents();

  test('shows the reason of a problem+json 401 and 404 in "why"', async () => {
    await page.goto(`${museum.current.url}/__inspector`);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: SHOWN_MS }).toBe('Live');
    const unauthorized = await send(`${museum.current.url}/special-events/${EVENT}`, { method: 'DELETE' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['content-type']).toBe('application/problem+json');
    const missing = await send(`${museum.current.url}/special-events/${EVENT}`, { headers: BASIC });
    expect(missing.status).toBe(404);

    await expect.poll(() => whyOf(401), { timeout: SHOWN_MS }).toEqual([`error 401: ${problemReason(unauthorized.json)}`]);
    expect(await whyOf(404)).toEqual([`error 404: ${problemReason(missing.json)}`]);
  });

  test('reads the reason of the other shapes an error body takes', async () => {
    await page.goto(`${museum.current.url}/__inspector`);
    const entry = (status: number, type: string, body: string, validation?: object) => ({
      status,
      response: { headers: { 'content-type': type }, body },
      ...(validation ? { validation } : {}),
    });
    const cases = [
      // The first string field, or list of strings, wherever it is (RealWorld's {"errors": {"body": [...]}}).
      entry(422, 'application/json', '{"errors":{"body":["title can\'t be blank","body is too short"]}}'),
      entry(401, 'application/json', '{"type":"https://example.com/problems/auth","code":"token expired"}'),
      // Plain text: its first line; HTML explains nothing in a line, so the journal's outcome instead.
      entry(404, 'text/plain; charset=utf-8', 'No such route\nsee the docs'),
      entry(400, 'text/html', '<html><body>Bad</body></html>', { ok: false, error: 400, message: 'query parameter limit must be integer' }),
      // A body that says nothing: the validation outcome the journal kept.
      entry(422, 'application/json', '{"errors":{"body":[]}}', { ok: false, error: 422, message: 'body must have required property title' }),
    ];
    const reasons = await page.evaluate(
      `import('/__inspector/journal.js').then(({ reasonsOf }) => ${JSON.stringify(cases)}.map((entry) => reasonsOf(entry).map((reason) => reason.text)))`,
    );
    expect(reasons).toEqual([
      ["error 422: title can't be blank; body is too short"],
      ['error 401: token expired'],
      ['error 404: No such route'],
      ['error 400: query parameter limit must be integer'],
      ['error 422: body must have required property title'],
    ]);
  });

  test("prefers a problem's detail to its title (tickets' 404)", async () => {
    await page.goto(`${tickets.current.url}/__inspector`);
    const missing = await send(`${tickets.current.url}/tickets/${EVENT}`);
    expect(missing.status).toBe(404);
    const { title, detail } = missing.json as { title: string; detail: string };
    expect(detail).not.toBe(title);
    await expect.poll(() => whyOf(404), { timeout: SHOWN_MS }).toEqual([`error 404: ${detail}`]);
  });

  test('opens an answered request without printing undefined in the detail', async () => {
    await page.goto(`${museum.current.url}/__inspector`);
    expect((await send(`${museum.current.url}/museum-hours`, { headers: BASIC })).status).toBe(200);
    const open = page.getByRole('button', { name: /^Open request \d+: GET \/museum-hours$/ });
    await expect.poll(() => open.count(), { timeout: SHOWN_MS }).toBe(1);
    await open.click();
    const detail = page.locator('#entry');
    await expect.poll(() => detail.isVisible()).toBe(true);
    expect(await detail.textContent()).toContain('"timeOpen"');
    expect(await detail.textContent()).not.toContain('undefined');
  });

  test('Close puts the focus back on the request that was opened', async () => {
    const open = page.getByRole('button', { name: /^Open request \d+: GET \/museum-hours$/ });
    await open.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#entry').isVisible()).toBe(true);
    await page.locator('#entry').getByRole('button', { name: 'Close' }).click();
    expect(await page.locator('#entry').isHidden()).toBe(true);
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe(await open.getAttribute('aria-label'));
  });

  test('shows the query string with its ?, in the row, the detail and the curl', async () => {
    expect((await send(`${museum.current.url}/special-events?page=1&limit=5`, { headers: BASIC })).status).toBe(200);
    const row = rows().filter({ hasText: 'limit=5' });
    await expect.poll(() => row.count(), { timeout: SHOWN_MS }).toBe(1);
    const open = row.getByRole('button');
    expect(await open.textContent()).toBe('GET /special-events?page=1&limit=5');
    expect(await open.getAttribute('aria-label')).toMatch(/^Open request \d+: GET \/special-events\?page=1&limit=5$/);
    await open.click();
    const detail = page.locator('#entry');
    await expect.poll(() => detail.locator('h3').textContent()).toMatch(/^Request \d+: GET \/special-events\?page=1&limit=5 → 200$/);
    expect(await detail.locator('pre.curl').textContent()).toContain(`curl -X GET '${museum.current.url}/special-events?page=1&limit=5'`);
  });

  test('a very long reason is cut short in its row, whole in its title', async () => {
    await page.goto(`${museum.current.url}/__inspector`);
    const path = `/no-such-place/${'y'.repeat(2000)}`;
    const refused = await send(`${museum.current.url}${path}`, { headers: BASIC });
    expect(refused.status).toBe(404);
    const reason = rows().filter({ hasText: 'yyyyyyyy' }).locator('.reasons li');
    await expect.poll(() => reason.count(), { timeout: SHOWN_MS }).toBe(1);
    const whole = await reason.getAttribute('title');
    expect(whole).toContain(path);
    expect(((await reason.textContent()) ?? '').length).toBeLessThanOrEqual(301);
  });

  test('a very long URL is cut short in its cell, and "why" keeps a readable width', async () => {
    await page.goto(`${museum.current.url}/__inspector`);
    const long = `/special-events/${EVENT}?${'note=' + 'x'.repeat(1500)}`;
    const refused = await send(`${museum.current.url}${long}`, { headers: BASIC });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const row = rows().filter({ hasText: 'xxxxxxxx' });
    await expect.poll(() => row.count(), { timeout: SHOWN_MS }).toBe(1);
    const why = row.locator('td').last();
    const width = (await why.boundingBox())?.width ?? 0;
    expect(width, 'the "why" column is squeezed').toBeGreaterThanOrEqual(200);
    // The page does not scroll sideways, and the whole URL is still there to read (its title) and in the detail.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(await page.evaluate("document.querySelector('#entries').scrollWidth <= document.querySelector('#journal').clientWidth")).toBe(true);
    expect(await row.getByRole('button').getAttribute('title')).toBe(`GET ${long}`);
    expect(await why.textContent()).not.toBe('');
  });
});
