import type { BrowserContext, BrowserContextOptions } from 'playwright-core';

export declare const CHROMIUM: string;
export declare const SKIP_BROWSER: boolean;
export declare const CHROMIUM_ARGS: readonly string[];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export declare function launchChromium(options?: BrowserContextOptions): Promise<Browser>;
