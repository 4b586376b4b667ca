/**
 * The bytes a request's payload is sent as, by the media type the request declares: JSON text, a
 * form (`application/x-www-form-urlencoded`) or multipart form data. One place, so a step that
 * changes a drawn payload (a lifecycle create, an update, a sign-in) sends it as the operation
 * takes it: Twilio's creates take forms, and JSON text under a form's content type was refused.
 */
import { contentTypeOf } from '../../../src/core/http/headers.js';
import { mediaTypeOf } from '../../../src/core/http/media-type.js';
import { isJsonObject, toJsonText, type JsonValue } from '../json-value.js';
import type { RequestCase } from './types.js';

export const MULTIPART_BOUNDARY = 'plantstore-conformance-boundary-7MA4YWxkTrZu0gW';

/** One form field's text: scalars as written (int64 exact), anything else as JSON. */
function fieldText(value: JsonValue): string {
  return typeof value === 'string' ? value : toJsonText(value);
}

export function formEncode(payload: JsonValue): string {
  if (!isJsonObject(payload)) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(payload)) {
    for (const item of Array.isArray(value) ? value : [value]) pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(fieldText(item))}`);
  }
  return pairs.join('&');
}

export function multipartEncode(payload: JsonValue): string {
  if (!isJsonObject(payload)) return `--${MULTIPART_BOUNDARY}--\r\n`;
  const parts = Object.entries(payload).map(
    ([key, value]) => `--${MULTIPART_BOUNDARY}\r\ncontent-disposition: form-data; name="${key.replace(/["\r\n]/g, '_')}"\r\n\r\n${fieldText(value)}\r\n`,
  );
  return `${parts.join('')}--${MULTIPART_BOUNDARY}--\r\n`;
}

/** The encoder for a request of this content type: JSON text unless it names a form. */
export function encoderFor(contentType: string | undefined): (payload: JsonValue) => string {
  switch (mediaTypeOf(contentType ?? '')) {
    case 'application/x-www-form-urlencoded':
      return formEncode;
    case 'multipart/form-data':
      return multipartEncode;
    default:
      return toJsonText;
  }
}

/** The payload's bytes as `request` sends its body (by its content-type header). */
export function encodedAs(request: Pick<RequestCase, 'headers'>, payload: JsonValue): string {
  return encoderFor(contentTypeOf(request.headers))(payload);
}

/** `request` carrying `payload` instead of its own, encoded as the request sends its body. */
export function withPayload(request: RequestCase, payload: JsonValue): RequestCase {
  return { ...request, payload, body: encodedAs(request, payload) };
}
