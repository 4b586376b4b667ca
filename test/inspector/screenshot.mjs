// Takes the README's picture of the inspector (src/inspector/inspector.png), by hand:
//   npm run build && node test/inspector/screenshot.mjs
// The same set-up as the browser test: serve with an admin token, Debian's Chromium driven by
// playwright-core, launched as the browser test launches it (test/support/chromium.mjs), a few creates, refusals and a fault.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../dist/src/index.js';
import { launchChromium } from '../support/chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'src', 'inspector', 'inspector.png');
const ADMIN = 'screenshot-admin';

const server = await startServer({ port: 0, adminToken: ADMIN });
const browser = await launchChromium({ viewport: { width: 1400, height: 1000 } });
try {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/__inspector`);
  await page.getByLabel('Admin token').fill(ADMIN);
  await page.getByLabel('Admin token').press('Enter');
  await page.locator('#live', { hasText: 'Live' }).waitFor();

  const post = (body, headers = { authorization: 'Bearer frontend', 'content-type': 'application/json' }) =>
    fetch(`${server.url}/plants`, { method: 'POST', headers, body });
  await post('{"id":1,"name":"Monstera deliciosa","tag":"aroid"}');
  await post('{"id":9007199254740993,"name":"Golden barrel cactus"}');
  await post('{"id":2,"tag":"fern"}');
  await post('{"id":1,"name":"Monstera again"}');
  await post('{"id":3,"name":"Pothos"}', { 'content-type': 'application/json' });
  await page.getByLabel('New fault').fill('{"kind":"status","status":503,"operation":"createPlant","times":2,"message":"maintenance"}');
  await page.getByRole('button', { name: 'Add fault' }).click();
  await page.locator('#fault-list tbody tr').first().waitFor();
  await post('{"id":4,"name":"Calathea"}');
  await page.locator('#entries tbody tr').nth(5).waitFor();
  await page.locator('#items tbody tr').nth(1).waitFor();
  await page.getByRole('button', { name: /^Open request 3:/ }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await server.close();
}
