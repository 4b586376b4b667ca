/**
 * The inspector's stored-resources panel in a real Chromium on documents that are not the Plant
 * Store: the create form leaves out what the server makes (a readOnly or server-assigned id, the
 * model's server-made fields), starts from the document's example values, shows and sends the
 * item inside an envelope when the model names one, and says so when a document has no resources.
 */
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, SKIP_BROWSER, type Browser } from '../support/chromium.mjs';
import { send, serverFor } from '../support/server.js';

const DOCUMENTS = new URL('../fixtures/documents/', import.meta.url).pathname;
const SHOWN_MS = 10_000;
const ADMIN = 'admin-secret-c0ffee';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.skipIf(SKIP_BROWSER)('the create form on documents other than the Plant Store, in Chromium', () => {
  const tickets = serverFor({ spec: `${DOCUMENTS}tickets.yaml` });
  const petstore = serverFor({ spec: `${DOCUMENTS}swagger-petstore3.yaml` });
  const noResources = serverFor({ spec: `${DOCUMENTS}api-with-examples.yaml` });
  const museum = serverFor({ spec: `${DOCUMENTS}museum.yaml` });
  const guarded = serverFor({ spec: `${DOCUMENTS}tickets.yaml`, adminToken: ADMIN });
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(5000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const newItem = () => page.getByLabel(/^New item/);
  const proposed = async () => JSON.parse(await newItem().inputValue()) as Record<string, unknown>;
  const stored = async (base: string, name: string) => (await send(`${base}/__control/resources/${name}/items`)).json as Record<string, unknown>[];

  test('leaves out the readOnly, server-assigned id, and the server assigns one on Create', async () => {
    await page.goto(`${tickets.current.url}/__inspector`);
    await expect.poll(() => page.locator('#items caption').textContent(), { timeout: SHOWN_MS }).toBe('tickets (0)');
    expect(await proposed()).toEqual({ title: 'text' });
    expect(await page.locator('#new-item-note').textContent()).toContain('The stand-in assigns id on Create.');
    await newItem().fill('{"title": "Printer jam"}');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('#resources-status').textContent()).toBe('Created tickets');
    const [ticket] = await stored(tickets.current.url, 'tickets');
    expect(ticket).toMatchObject({ title: 'Printer jam' });
    expect(ticket?.id).toMatch(UUID);
    expect((await send(`${tickets.current.url}/tickets/${String(ticket?.id)}`)).json).toMatchObject({ title: 'Printer jam' });
  });

  test("starts from the document's example values of the create schema", async () => {
    await page.goto(`${petstore.current.url}/__inspector`);
    await expect.poll(() => page.locator('#resource option').allTextContents(), { timeout: SHOWN_MS }).toEqual(['pet', 'order', 'user']);
    await page.locator('#resource').selectOption('user');
    await expect.poll(() => proposed()).toMatchObject({ username: 'theUser', firstName: 'John', lastName: 'James', email: 'john@email.com', userStatus: 1 });
    await page.locator('#resource').selectOption('pet');
    await expect.poll(() => proposed()).toMatchObject({ name: 'doggie', category: { id: 1, name: 'Dogs' } });
  });

  test('shows and sends the item inside an envelope and leaves out server-made fields, when the model names them', async () => {
    // The model as a stand-in that infers envelopes and server-made fields answers it.
    await page.route('**/__control/resources', async (route: Route) => {
      const answer = await route.fetch();
      const model = (await answer.json()) as { resources: Record<string, unknown>[] };
      for (const resource of model.resources) {
        resource.envelope = { request: 'ticket', answer: 'ticket' };
        resource.example = { ticket: { title: 'Printer jam', createdAt: '2024-01-01T00:00:00Z' } };
        resource.serverFields = [{ property: 'createdAt', kind: 'created-time' }];
      }
      await route.fulfill({ response: answer, json: model });
    });
    try {
      await page.goto(`${tickets.current.url}/__inspector`);
      await expect.poll(() => proposed(), { timeout: SHOWN_MS }).toEqual({ title: 'Printer jam' });
      expect(await page.locator('label[for="new-item"]').textContent()).toContain('the item inside {"ticket": …}');
      // A body pasted as the API takes it, envelope and all, is stored as the item inside.
      await newItem().fill('{"ticket": {"title": "Wrapped"}}');
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.locator('#resources-status').textContent()).toBe('Created tickets');
      expect((await stored(tickets.current.url, 'tickets')).map((item) => item.title)).toContain('Wrapped');
    } finally {
      await page.unroute('**/__control/resources');
    }
  });

  test('cuts a long value short in the items table, whole in its title, and keeps the row one screen high', async () => {
    const description = 'A long description. '.repeat(150).trim();
    const event = { name: 'Long talk', location: 'Hall', eventDescription: description, dates: ['2024-01-01'], price: 5 };
    const basic = `Basic ${Buffer.from('visitor:secret').toString('base64')}`;
    const created = await send(`${museum.current.url}/special-events`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(created.status).toBe(201);
    await page.goto(`${museum.current.url}/__inspector`);
    const row = page.locator('#items tbody tr');
    await expect.poll(() => row.count(), { timeout: SHOWN_MS }).toBe(1);
    const cut = row.locator('td', { hasText: 'A long description.' });
    expect(((await cut.textContent()) ?? '').length).toBeLessThanOrEqual(121);
    expect(await cut.getAttribute('title')).toBe(description);
    // Polled: the items table may be re-rendered by its refresh between two reads (no box while detached).
    await expect.poll(async () => (await row.boundingBox())?.height ?? Infinity, { timeout: SHOWN_MS }).toBeLessThan(200);
    // The action's label stays on one line.
    await expect
      .poll(async () => (await row.getByRole('button', { name: /^Delete special-events/ }).boundingBox())?.height ?? Infinity, { timeout: SHOWN_MS })
      .toBeLessThan(40);
  });

  test('behind --admin-token, lists the resources once the token is given, with no refusal left over', async () => {
    await page.goto(`${guarded.current.url}/__inspector`);
    await page.getByLabel('Admin token').fill(ADMIN);
    await page.getByLabel('Admin token').press('Enter');
    await expect.poll(() => page.locator('#items caption').textContent(), { timeout: SHOWN_MS }).toBe('tickets (0)');
    expect(await page.locator('#resources-status').textContent()).toBe('');
  });

  test('says so when the document has no resources, instead of offering plants', async () => {
    await page.goto(`${noResources.current.url}/__inspector`);
    await expect
      .poll(() => page.locator('#resources-status').textContent(), { timeout: SHOWN_MS })
      .toBe('No stored resources: the stand-in found none in this document, so every operation is answered by the mocker.');
    expect(await page.locator('#resource option').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
  });

  test('says there is nothing yet in the requests and faults tables, or nothing the filters let through', async () => {
    await expect.poll(() => page.locator('#entries caption').textContent()).toBe(`No requests yet: send one to ${noResources.current.url}`);
    expect(await page.locator('#fault-list caption').textContent()).toBe('None in force');
    expect((await send(`${noResources.current.url}/`)).status).toBe(200);
    await expect.poll(() => page.locator('#entries caption').textContent(), { timeout: SHOWN_MS }).toBe('Newest first');
    await page.getByLabel('Failures only').check();
    expect(await page.locator('#entries caption').textContent()).toBe('No request matches the filters');
  });
});
