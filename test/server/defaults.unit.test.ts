/** startServer's defaults, applied once at start (src/server/defaults.ts), are the serve table's. */
import { expect, test } from 'vitest';
import { settleOptions } from '../../src/server/defaults.js';
import { SERVE_DEFAULTS, SERVE_OPTIONS } from '../../src/server/options/table.js';

test('an option not given takes the serve table default', () => {
  const settled = settleOptions({});
  expect(settled).toMatchObject({ ...SERVE_DEFAULTS, tokens: [], allowedHosts: [] });
  expect(settled).toMatchObject({
    cors: SERVE_OPTIONS.cors.default,
    echoId: SERVE_OPTIONS.echoId.default,
    isolateByToken: SERVE_OPTIONS.isolateByToken.default,
  });
});

test('an option given wins, and the body buffer is never below the body limit', () => {
  expect(settleOptions({ port: 0, cors: false })).toMatchObject({ port: 0, cors: false });
  const large = SERVE_DEFAULTS.bodyBufferBytes * 2;
  expect(settleOptions({ bodyLimitBytes: large }).bodyBufferBytes).toBe(large);
  expect(() => settleOptions({ bodyLimitBytes: 2048, bodyBufferBytes: 1024 })).toThrow('bodyBufferBytes (1024) must be at least bodyLimitBytes (2048)');
});
