/** What the request cases read from an operation: its JSON body and its security requirements. */
import type { Operation } from '../../../src/document/load-document.js';
import type { JsonSchema } from '../schema-arbitrary.js';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The operation's JSON request body: its media type and schema (application/json preferred). */
export function jsonRequestBody(operation: Operation): { readonly mediaType: string; readonly schema: JsonSchema; readonly required: boolean } | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const content = contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => JSON_MEDIA_TYPE.test(c.mediaType));
  if (content === undefined) return undefined;
  // A JSON body without a schema accepts any JSON value.
  return { mediaType: content.mediaType, schema: content.schema ?? {}, required: operation.request?.body?.required === true };
}

/** True when every security alternative needs credentials and one of them is HTTP bearer. */
export function requiresBearer(operation: Operation): boolean {
  const alternatives = operation.security ?? [];
  if (alternatives.length === 0 || alternatives.some((alternative) => alternative.length === 0)) return false;
  return alternatives.some((alternative) => alternative.some(isBearer));
}

function isBearer(scheme: { readonly type: string; readonly scheme?: string }): boolean {
  return scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer';
}

/** True when some security alternative takes HTTP Basic credentials. */
export function acceptsBasic(operation: Operation): boolean {
  return (operation.security ?? []).some((alternative) => alternative.some((s) => s.type === 'http' && s.scheme.toLowerCase() === 'basic'));
}

/** True when some security alternative takes a bearer token: valid requests then send one. */
export function offersBearer(operation: Operation): boolean {
  return (operation.security ?? []).some((alternative) => alternative.some(isBearer));
}
