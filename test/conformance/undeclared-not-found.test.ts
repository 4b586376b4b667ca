/**
 * A 404 for an item id the run never created, on an operation that declares another failure status
 * (400) but not 404, is the document's gap, not the server's fault (issue 19): a warning that names
 * the gap, a failure only with --strict. The server is correct by HTTP: it holds no item, answers
 * 404 for a well-formed id and 400 for a malformed one.
 */
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import { listenLocally } from './faulty-servers/http-double.js';

const document = {
  openapi: '3.0.3',
  info: { title: 'things', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'readThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': { description: 'the thing', content: { 'application/json': { schema: { type: 'object' } } } },
          '400': { description: 'a malformed id', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};

describe('an undeclared 404 for an id the run never created', () => {
  it.each([false, true])('is a warning naming the gap (--strict %s makes it a failure)', { timeout: 60_000 }, async (strict) => {
    const server = await listenLocally((req, res) => {
      const id = /^\/things\/(\d+)$/.exec(req.url ?? '')?.[1];
      const status = id !== undefined && BigInt(id) >= 1n ? 404 : 400;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message: status === 404 ? 'no such thing' : 'bad id' }));
    });
    try {
      const report = await verify({ target: server.url, spec: document, runs: 20, seed: 2, strict });
      const findings = report.checks.flatMap((check) => check.findings);
      expect(findings.map((f) => [f.check, f.severity])).toEqual([['status-conformance', strict ? 'failure' : 'warning']]);
      expect(findings[0]?.message).toMatch(/a 404 for an item id the run never created: the document declares 400 but not 404 for GET \/things\/\{id\}/);
      expect(report.ok).toBe(!strict);
    } finally {
      await server.close();
    }
  });
});
