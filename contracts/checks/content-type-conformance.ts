/** An answer's Content-Type is a media type the document declares for its status (parameters such as charset are fine). */
import { declaredResponse } from '../../src/core/openapi/operation.js';
import { mediaTypeAccepts, mediaTypeOf } from '../../src/core/http/media-type.js';
import { describeResponse } from './declared.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

export const contentTypeConformance: Check<'content-type-conformance'> = {
  id: 'content-type-conformance',
  title: 'Content types are declared',
  description: 'Every answer has the content type declared for its status (e.g. application/json; charset is allowed).',
  judge({ request, response }, { operation }) {
    if (response.status === undefined) return undefined;
    const declared = declaredResponse(operation, response.status);
    const types = (declared?.contents ?? []).map((content) => content.mediaType);
    if (types.length === 0) return undefined; // nothing declared for this status: nothing to hold it to
    const header = response.headers['content-type'];
    const actual = mediaTypeOf(header);
    if (actual !== undefined && types.some((type) => mediaTypeAccepts(type, actual))) return PASS;
    return fail({
      key: byAnswer(`${response.status} ${actual ?? 'none'}`),
      expected: `content-type ${types.join(' or ')}`,
      expectation: { kind: 'media-type', mediaTypes: types },
      actual: header === undefined ? `no content-type; ${describeResponse(response)}` : `content-type ${header}`,
      message: `a ${response.status} answer came with ${header === undefined ? 'no content type' : `content type ${header}`} (${request.label})`,
    });
  },
};
