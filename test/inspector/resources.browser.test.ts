/**
 * The inspector's stored-resources panel in a real Chromium: the create form starts from the
 * document's example (or, without one, a body built from the schema, the server's id left out), and a nested
 * resource (owners-pets: pets under owners) is listed, created and deleted per parent.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, SKIP_BROWSER, type Browser } from '../support/chromium.mjs';
import { send, serverFor } from '../support/server.js';

const OWNERS_PETS = new URL('../fixtures/documents/owners-pets.yaml', import.meta.url).pathname;
const SHOWN_MS = 10_000;

describe.skipIf(SKIP_BROWSER)('the stored-resources panel in Chromium', () => {
  const plantStore = serverFor();
  const ownersPets = serverFor({ spec: OWNERS_PETS });
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

  const proposed = async () => JSON.parse(await page.getByLabel(/^New item/).inputValue()) as unknown;
  const rows = () => page.locator('#items tbody tr');

  test("starts a new plant from the document's example", async () => {
    await page.goto(`${plantStore.current.url}/__inspector`);
    await expect.poll(() => page.locator('label[for="new-item"]').textContent(), { timeout: SHOWN_MS }).toBe('New item (JSON; the document’s example)');
    expect(await proposed()).toEqual({ name: 'Monstera deliciosa', tag: 'aroid', id: 1 });
  });

  test('starts a new owner from a body built from the schema, without the id the server assigns', async () => {
    await page.goto(`${ownersPets.current.url}/__inspector`);
    await expect.poll(() => page.locator('#resource option').allTextContents(), { timeout: SHOWN_MS }).toEqual(['owners', 'owners.pets', 'shelters.pets']);
    await expect
      .poll(() => page.locator('label[for="new-item"]').textContent())
      .toBe('New item (JSON; built from the document’s schema: its example values where it gives them, else minimal ones)');
    expect(await proposed()).toEqual({ name: 'text' });
    expect(await page.locator('#new-item-note').textContent()).toBe('The stand-in assigns id on Create.');
    await page.getByLabel(/^New item/).fill('{"name": "Ada", "id": 7}');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => rows().allTextContents()).toEqual(['7AdaDelete']);
  });

  test('lists a nested resource per parent, and creates and deletes its items there', async () => {
    await page.locator('#resource').selectOption('owners.pets');
    const ownerId = page.getByLabel('ownerId');
    await ownerId.waitFor({ state: 'visible' });
    expect(await page.locator('#items caption').textContent()).toBe('owners.pets: give ownerId to list the items of one parent');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('#resources-status').textContent()).toBe('owners.pets is nested: give ownerId first');

    await ownerId.fill('7');
    await ownerId.press('Enter');
    await expect.poll(() => page.locator('#items caption').textContent()).toBe('owners.pets of ownerId 7 (0)');
    expect(await proposed()).toEqual({ name: 'text', species: 'text' });
    await page.getByLabel(/^New item/).fill('{"id": 3, "name": "Rex", "species": "dog"}');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => rows().allTextContents()).toEqual(['3RexdogDelete']);
    const stored = (ownerId: number) => send(`${ownersPets.current.url}/__control/resources/owners.pets/items?ownerId=${ownerId}`);
    expect((await stored(7)).json).toEqual([{ id: 3, name: 'Rex', species: 'dog' }]);
    // Another owner's pets are another collection.
    expect((await stored(8)).json).toEqual([]);
    expect((await send(`${ownersPets.current.url}/owners/7/pets/3`)).json).toMatchObject({ name: 'Rex' });

    await page.getByRole('button', { name: 'Delete owners.pets 3' }).click();
    await expect.poll(() => rows().count()).toBe(0);
    expect((await stored(7)).json).toEqual([]);
  });
});
