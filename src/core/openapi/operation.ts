/**
 * An operation's facts as the document states them, read the same way by serve and verify: its
 * name, its request body, its declared responses and the status it declares for failures.
 */
import type { IHttpOperation, IHttpOperationResponse, IHttpWebhookOperation, IMediaTypeContent } from '@stoplight/types';
import { isJsonMediaType, mediaTypeOf } from '../http/media-type.js';

export type Operation = IHttpOperation;

/** A webhook of the document (OpenAPI 3.1 `webhooks`): an operation the API calls, named instead of pathed. */
export type Webhook = IHttpWebhookOperation;

/** A body's JSON Schema as prism gives it. */
export type BodySchema = NonNullable<IMediaTypeContent['schema']>;

/** The operation's name in the document's own words: operationId, else "METHOD path". */
export function operationName(operation: Operation): string {
  return operation.iid ?? `${operation.method.toUpperCase()} ${operation.path}`;
}

/** The operation's JSON request body: its media type and schema (application/json preferred, then any +json). */
export function jsonRequestBody(operation: Pick<Operation, 'request'>): { readonly mediaType: string; readonly schema: BodySchema; readonly required: boolean } | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const content = contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => isJsonMediaType(mediaTypeOf(c.mediaType) ?? ''));
  if (content === undefined) return undefined;
  // A JSON body without a schema accepts any JSON value.
  return { mediaType: content.mediaType, schema: content.schema ?? {}, required: operation.request?.body?.required === true };
}

/** The response the document declares for `status`: exact code first, then "2XX"-style ranges, then "default". */
export function declaredResponse(operation: Operation, status: number): IHttpOperationResponse | undefined {
  const code = String(status);
  const range = `${code[0] ?? ''}XX`;
  return (
    operation.responses.find((r) => r.code === code) ??
    operation.responses.find((r) => r.code.toUpperCase() === range) ??
    operation.responses.find((r) => r.code === 'default')
  );
}

/**
 * The status the document declares for refusing a request: 400 when it declares 400 (or no 4xx at
 * all), else its lowest declared 4xx. Refusals the document has no status of their own for get it.
 */
export function declaredFailureStatus(operation: Operation): number {
  const declared = operation.responses.map((response) => Number(response.code)).filter((code) => code >= 400 && code < 500);
  if (declared.length === 0 || declared.includes(400)) return 400;
  return Math.min(...declared);
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}
