/**
 * compileBodyCheck in the response direction (what the one judge of answers uses) must judge every
 * body as prism-http's validateOutput does, word for word: on every JSON answer schema of the bundled
 * and fixture documents, for valid bodies, drawn bodies and bodies with one property broken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../../contracts/generators/schema-arbitrary.js';
import { anyJson } from '../../contracts/generators/arbitraries/any-json.js';
import { loadDocument } from '../../src/core/openapi/load-document.js';
import { compileBodyCheck, validateOutput } from '../../src/core/prism/adapter.js';
import { validationView, widenInt64Bounds } from '../../src/core/prism/int64-bounds.js';
import { toJsonText, type JsonValue } from '../../src/core/json/exact-json.js';
import { DiagnosticSeverity } from '@stoplight/types';

const DOCUMENTS = [
  'spec/plant-store.yaml',
  'spec/plant-store-public.yaml',
  'test/fixtures/documents/petstore-expanded.yaml',
  'test/fixtures/documents/tickets.yaml',
  'test/fixtures/documents/uspto.yaml',
  'test/fixtures/documents/owners-pets.yaml',
];

const messagesOf = (
  diagnostics: ReadonlyArray<{ severity: DiagnosticSeverity; message: string; path?: ReadonlyArray<string | number> }> | undefined,
): string[] =>
  (diagnostics ?? [])
    .filter((d) => d.severity === DiagnosticSeverity.Error && (d.path === undefined || d.path[0] === 'body'))
    .map((d) => d.message)
    .sort();

describe('compileBodyCheck (response) judges as validateOutput', () => {
  for (const file of DOCUMENTS) {
    it(file, async () => {
      const document = await loadDocument(file);
      let compared = 0;
      for (const raw of document.operations) {
        const operation = widenInt64Bounds(raw);
        for (const response of operation.responses) {
          const status = Number(response.code);
          if (!Number.isInteger(status)) continue;
          for (const content of response.contents ?? []) {
            if (content.schema === undefined || !/json/.test(content.mediaType)) continue;
            const check = compileBodyCheck(content.schema, operation, 'response');
            let valid: fc.Arbitrary<unknown>;
            try {
              valid = arbitraryFromSchema(content.schema as never, {}) as fc.Arbitrary<unknown>;
            } catch {
              valid = anyJson(3, 0) as fc.Arbitrary<unknown>;
            }
            const bodies = fc.sample(
              fc.oneof(
                valid,
                anyJson(3, 0) as fc.Arbitrary<unknown>,
                valid.map((body) => breakOne(body)),
              ),
              { seed: 7, numRuns: 60 },
            );
            for (const drawn of bodies) {
              // As the check reads an answer: an int64 beyond 2^53 in the view validators take.
              const body = validationView(drawn as JsonValue);
              const prism = validateOutput({ resource: operation, element: { statusCode: status, headers: { 'content-type': content.mediaType }, body } });
              const expected = prism._tag === 'Right' ? [] : messagesOf(prism.left);
              expect(messagesOf(check?.(body as JsonValue, false)), `${raw.method} ${raw.path} ${status} ${toJsonText(drawn as JsonValue)}`).toEqual(expected);
              compared += 1;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});

/** The body with its first property set to a value of another type. */
function breakOne(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const [key] = Object.keys(body);
  return key === undefined ? body : { ...body, [key]: typeof (body as Record<string, unknown>)[key] === 'string' ? 12 : 'x' };
}
