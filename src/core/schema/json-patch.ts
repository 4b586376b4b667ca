/**
 * A body that is a JSON Patch document (RFC 6902): an array of operations, each an object requiring
 * `op` and `path` (Ory Kratos declares its PATCH so, under application/json), or any body sent as
 * application/json-patch+json. serve applies one to the stored item; verify's valid requests send
 * the empty patch, the one patch every such server must take (a drawn `op` or `path` names nothing).
 */
import { mediaTypeOf } from '../http/media-type.js';
import { arrayItems, objectShape } from './properties.js';

export const JSON_PATCH = 'application/json-patch+json';

export function isJsonPatchDocument(schema: unknown, mediaType?: string): boolean {
  if (mediaTypeOf(mediaType) === JSON_PATCH) return true;
  const items = arrayItems(schema);
  if (items === undefined) return false;
  const { required } = objectShape(items);
  return required.has('op') && required.has('path');
}
