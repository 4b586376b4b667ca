/** Content-type families: a valid JSON body sent under a media type the operation does not declare. */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { mediaTypeAccepts } from '../../../src/core/http/media-type.js';
import { toJsonText } from '../json-value.js';
import { family, type Base, type Body } from './base.js';
import type { CaseFamily, RequestCase } from './types.js';

export function contentTypeFamilies(base: Base, operation: Operation): CaseFamily[] {
  const body = base.body as Body;
  const declared = (operation.request?.body?.contents ?? []).map((c) => c.mediaType);
  const covers = (type: string): boolean => declared.some((d) => mediaTypeAccepts(d, type));
  return ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']
    .filter((type) => !covers(type))
    .map((type) => {
      const breaks = `content-type: ${type}`;
      const arbitrary = fc.tuple(base.path, body.payload).map(([path, payload]): RequestCase => ({
        kind: 'invalid',
        breaks,
        target: 'content-type',
        method: base.method,
        path,
        headers: { ...base.headers, 'content-type': type },
        body: toJsonText(payload),
        payload,
      }));
      return family(breaks, 'content-type', arbitrary);
    });
}
