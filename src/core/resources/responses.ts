import { isJsonMediaType, mediaTypeOf } from '../http/media-type.js';
import type { IHttpOperationResponse } from '@stoplight/types';
import type { BodySchema, Operation } from '../openapi/operation.js';

/** The JSON schema of the operation's success answer: the lowest 2xx code declaring one (200 before 201, codes before 2XX). */
export function jsonSuccessSchema(operation: Operation): BodySchema | undefined {
  const successes = operation.responses.filter((response) => /^2(\d\d|XX)$/i.test(response.code)).sort((a, b) => a.code.localeCompare(b.code));
  for (const response of successes) {
    const schema = jsonSchemaOf(response);
    if (schema !== undefined) return schema;
  }
  return undefined;
}

/** The schema of a response's JSON content, whichever media type it declares first (an XML one may name its properties otherwise). */
export function jsonSchemaOf(response: IHttpOperationResponse | undefined): BodySchema | undefined {
  return response?.contents?.find((c) => c.schema !== undefined && isJsonMediaType(mediaTypeOf(c.mediaType) ?? ''))?.schema;
}
