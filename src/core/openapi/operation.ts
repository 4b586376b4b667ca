/**
 * An operation's facts as the document states them, read the same way by serve and verify: its
 * name, its request body, its declared responses and the status it declares for failures.
 */
import type { IHttpOperation, IHttpOperationResponse, IHttpWebhookOperation, IMediaTypeContent } from '@stoplight/types';
import { declares, type DeclaredStatuses } from '../errors.js';
import { isJsonMediaType, mediaTypeOf } from '../http/media-type.js';

export type Operation = IHttpOperation;

/**
 * The path a request for a path key takes. Box keys alternatives of one route apart after a "#"
 * ("/files/{file_id}#add_shared_link"): a fragment, which no client sends, so the operation is
 * served and called on "/files/{file_id}" and shares it with the other operations of that method.
 */
export function requestPath(template: string): string {
  const fragment = template.indexOf('#');
  return fragment === -1 ? template : template.slice(0, fragment);
}

/** Other operations of the same method on the same request path (Box's "#" alternatives): a request cannot say which it is for. */
export function sameRouteAs(operation: Operation, operations: readonly Operation[]): Operation[] {
  return operations.filter((o) => o !== operation && o.method === operation.method && o.path === operation.path);
}

/** A webhook of the document (OpenAPI 3.1 `webhooks`): an operation the API calls, named instead of pathed. */
export type Webhook = IHttpWebhookOperation;

/** A body's JSON Schema as prism gives it. */
export type BodySchema = NonNullable<IMediaTypeContent['schema']>;

/** The operation's name in the document's own words: operationId, else "METHOD path". */
export function operationName(operation: Operation): string {
  return operation.iid ?? `${operation.method.toUpperCase()} ${operation.path}`;
}

/** The operation's JSON request body: its media type and schema (application/json preferred, then any +json). */
export function jsonRequestBody(
  operation: Pick<Operation, 'request'>,
): { readonly mediaType: string; readonly schema: BodySchema; readonly required: boolean } | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const content = contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => isJsonMediaType(mediaTypeOf(c.mediaType) ?? ''));
  if (content === undefined) return undefined;
  // A JSON body without a schema accepts any JSON value.
  return { mediaType: content.mediaType, schema: content.schema ?? {}, required: operation.request?.body?.required === true };
}

/**
 * The schema of an operation's request body, one reading for serve and verify: the content a
 * request's Content-Type names (a form, multipart) when it is given, else the JSON one
 * (jsonRequestBody), else the first declared with a schema (a form-only body). Never merely the first
 * declared: an application/xml one listed first may name its properties otherwise.
 */
export function requestBodySchema(operation: Pick<Operation, 'request'>, contentType?: string): BodySchema | undefined {
  const contents = operation.request?.body?.contents ?? [];
  const sent = mediaTypeOf(contentType);
  const named = sent === undefined ? undefined : contents.find((c) => mediaTypeOf(c.mediaType) === sent);
  return named?.schema ?? jsonRequestBody(operation)?.schema ?? contents.find((c) => c.schema !== undefined)?.schema;
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
 * The status the document declares for refusing a request: 400 when it declares 400 (exactly, by
 * `4XX` or by `default`) or no 4xx at all, else 422 when declared, else its lowest declared 4xx. A
 * status fault that names no status answers it; refusals choose theirs by meaning (statusOf).
 */
export function declaredFailureStatus(operation: Operation): number {
  return declaredStatuses(operation).failureStatus;
}

/** Every status the operation declares, as statusOf reads them: exact codes, `4XX`-style ranges, `default`. */
export function declaredStatuses(operation: Operation): DeclaredStatuses {
  const declared = new Set<number>();
  const ranges = new Set<number>();
  let declaresDefault = false;
  for (const { code } of operation.responses) {
    if (code === 'default') declaresDefault = true;
    else if (/^[1-5]XX$/i.test(code)) ranges.add(Number(code[0]));
    else if (/^[1-5]\d\d$/.test(code)) declared.add(Number(code));
  }
  const statuses = { declared, ranges, declaresDefault, failureStatus: 400 };
  const clientErrors = [...declared].filter(isClientError);
  const failureStatus = declares(statuses, 400) ? 400 : declares(statuses, 422) ? 422 : clientErrors.length > 0 ? Math.min(...clientErrors) : 400;
  return { ...statuses, failureStatus };
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}
