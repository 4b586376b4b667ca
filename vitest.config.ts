import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    // Servers under test bind loopback ports; keep files in parallel but bounded for 2-core CI.
    maxWorkers: 2,
    // Tests that spawn the CLI need dist/; build it once, up front, when sources are newer.
    globalSetup: ['test/build-once.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
