/**
 * serve and verify read a document's security the same way: for every combination of schemes,
 * `plantstore verify` passes against `plantstore serve` of the same document. Before both sides
 * shared src/core/openapi/security.ts, bearer-or-apiKey was served open while the suite expected
 * refusals (negative-rejection and auth-enforced failed).
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import { verify } from '../../contracts/index.js';

type Requirement = Record<string, string[]>;

const SCHEMES = {
  bearerAuth: { type: 'http', scheme: 'bearer' },
  basicAuth: { type: 'http', scheme: 'basic' },
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
  apiKeyCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
};

const ERROR = { type: 'object', required: ['error', 'message'], properties: { error: { type: 'integer' }, message: { type: 'string' } } };

/** One JSON-body operation; `global` is the document's security, `own` the operation's (absent: inherits). */
function documentWith(global: Requirement[] | undefined, own: Requirement[] | undefined): object {
  const thing = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 20 } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Things', version: '1' },
    ...(global === undefined ? {} : { security: global }),
    paths: {
      '/things': {
        post: {
          operationId: 'addThing',
          ...(own === undefined ? {} : { security: own }),
          requestBody: { required: true, content: { 'application/json': { schema: thing } } },
          responses: {
            // No body: a mocked answer cannot carry back what was sent (response-reflects-request).
            '202': { description: 'queued' },
            '400': { description: 'refused', content: { 'application/json': { schema: ERROR } } },
            '401': { description: 'no credentials', content: { 'application/json': { schema: ERROR } } },
          },
        },
      },
    },
    components: { securitySchemes: SCHEMES },
  };
}

/** [label, document security, operation security, whether credentials are required]. */
const CASES: ReadonlyArray<readonly [string, Requirement[] | undefined, Requirement[] | undefined, boolean]> = [
  ['no security', undefined, undefined, false],
  ['bearer', [{ bearerAuth: [] }], undefined, true],
  ['apiKey in a header', [{ apiKeyHeader: [] }], undefined, true],
  ['bearer or apiKey', [{ bearerAuth: [] }, { apiKeyHeader: [] }], undefined, true],
  ['bearer and apiKey', [{ bearerAuth: [], apiKeyHeader: [] }], undefined, true],
  ['an operation-level apiKey overriding a global bearer', [{ bearerAuth: [] }], [{ apiKeyHeader: [] }], true],
  ['security: [] on the operation under a global bearer', [{ bearerAuth: [] }], [], false],
  ['bearer or nothing ({})', [{ bearerAuth: [] }, {}], undefined, false],
  ['basic, apiKey in the query, or apiKey in a cookie', [{ basicAuth: [] }, { apiKeyQuery: [] }, { apiKeyCookie: [] }], undefined, true],
];

describe('verify passes against serve of the same document, whatever its security', () => {
  it.each(CASES)('%s', async (_label, global, own, required) => {
    const spec = documentWith(global, own);
    const server = await startServer({ port: 0, spec, logLevel: 'silent' });
    try {
      const report = await verify({ target: server.url, spec, runs: 8, seed: 42, concurrency: 2 });
      const failures = report.checks
        .flatMap((check) => check.findings)
        .filter((finding) => finding.severity === 'failure')
        .map((finding) => `${finding.check}: ${finding.message}`);
      expect(failures).toEqual([]);
      expect(report.ok).toBe(true);
      // Refusals were sent (and answered as refusals) exactly when the document requires credentials.
      const authCases = report.checks.find((check) => check.id === 'auth-enforced')?.cases ?? 0;
      expect(authCases > 0).toBe(required);
    } finally {
      await server.close();
    }
  });
});
