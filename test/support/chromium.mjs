// @ts-check
/**
 * A real headless Chromium for the inspector's tests and its README picture
 * (test/inspector/screenshot.mjs, run by plain node, hence JavaScript; types in chromium.d.mts):
 * Debian's `chromium` driven by playwright-core, which never downloads a browser of its own.
 * `.ci/run` installs chromium when it is missing; set PLANTSTORE_SKIP_BROWSER=1 to leave the
 * browser tests out on a machine without it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.PLANTSTORE_CHROMIUM ?? '/usr/bin/chromium';
export const SKIP_BROWSER = process.env.PLANTSTORE_SKIP_BROWSER === '1';

/** The flags of a quiet, offline, throwaway Chromium (no sync, updates or background traffic). */
export const CHROMIUM_ARGS = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/**
 * Starts Chromium with a fresh profile (`options` go to playwright's launch, e.g. a viewport);
 * fails with what to do when it is not installed. close() also removes the profile.
 * @param {import('playwright-core').BrowserContextOptions} [options]
 */
export async function launchChromium(options = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the inspector's browser tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does this), ` +
        'point PLANTSTORE_CHROMIUM at another build, or set PLANTSTORE_SKIP_BROWSER=1 to leave these tests out',
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'plantstore-chromium-'));
  try {
    // A persistent context is how playwright takes a --user-data-dir: a fresh one per run.
    const context = await chromium.launchPersistentContext(profile, { ...options, executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
    return {
      context,
      close: async () => {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
