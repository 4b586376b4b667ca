// Takes the docs' picture of the inspector (src/inspector/inspector.png), by hand:
//   npm run build && node test/inspector/screenshot.mjs
// On a document that is not the Plant Store (Redocly's Museum API: HTTP basic, problem+json), with
// the browser test's set-up: serve with an admin token, Debian's Chromium driven by playwright-core,
// launched as the browser test launches it (test/support/chromium.mjs); a few creates, refusals and a fault.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../dist/src/index.js';
import { launchChromium } from '../support/chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'src', 'inspector', 'inspector.png');
const MUSEUM = join(ROOT, 'test', 'fixtures', 'documents', 'museum.yaml');
const ADMIN = 'screenshot-admin';
const BASIC = `Basic ${Buffer.from('visitor:secret').toString('base64')}`;
const MISSING = '3be6453c-03eb-4357-ae5a-984a0e574a54';

const server = await startServer({ port: 0, spec: MUSEUM, adminToken: ADMIN });
const browser = await launchChromium({ viewport: { width: 1400, height: 1000 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/__inspector`);
  await page.getByLabel('Admin token').fill(ADMIN);
  await page.getByLabel('Admin token').press('Enter');
  await page.locator('#live', { hasText: 'Live' }).waitFor();

  const send = (method, path, body, authorization = BASIC) =>
    fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body });
  const event = (name, location, price) =>
    JSON.stringify({ name, location, eventDescription: `${name}, in the ${location}.`, dates: ['2024-09-05', '2024-09-08'], price });
  await send('POST', '/special-events', event('Mermaid Treasure Identification', 'Under the sea', 0));
  await send('POST', '/special-events', event('Pirate Coding Workshop', 'Computer Room', 25));
  await send('GET', '/special-events?page=1&limit=10');
  await send('GET', `/special-events/${MISSING}`);
  await send('POST', '/special-events', JSON.stringify({ name: 'No dates' }));
  await send('DELETE', `/special-events/${MISSING}`, undefined, null);
  await page.getByLabel('New fault').fill('{"kind":"status","status":503,"operation":"createSpecialEvent","times":2}');
  await page.getByRole('button', { name: 'Add fault' }).click();
  await page.locator('#fault-list tbody tr').first().waitFor();
  await send('POST', '/special-events', event('Night at the Museum', 'Great Hall', 40));
  await page.locator('#entries tbody tr').nth(6).waitFor();
  await page.locator('#items tbody tr').nth(1).waitFor();
  await page.getByRole('button', { name: /^Open request 6:/ }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
