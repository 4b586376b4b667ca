/**
 * Judges a real implementation's answer against the document, as `verify` and Prism's proxy do:
 * is the status declared, is the media type one the response declares, does the JSON body match
 * its schema — read exactly (int64 beyond 2^53 kept whole) and checked with the same Ajv set-up
 * as the request validator. Compiled once per operation.
 */
import type { IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { parseExactJson } from '../core/json/exact-json.js';
import { declaredResponse, type Operation } from '../core/openapi/operation.js';
import { isJsonMediaType, mediaTypeAccepts, parseMediaType } from '../core/http/media-type.js';
import { compileSchemaCheck, type SchemaCheck } from '../core/prism/adapter.js';
import { int64Message, validationView, widenInt64Bounds } from '../core/prism/int64-bounds.js';
import type { ContractViolation } from '../journal/journal.js';

export type ResponseCheck = (status: number, contentType: string | undefined, body: Buffer) => ContractViolation[];

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function compileResponseCheck(operation: Operation): ResponseCheck {
  const bundle: unknown = (operation as { __bundled__?: unknown }).__bundled__;
  const checks = new Map<IMediaTypeContent, SchemaCheck | undefined>();
  const checkOf = (content: IMediaTypeContent) => {
    if (!checks.has(content)) checks.set(content, content.schema ? compileSchemaCheck(widenInt64Bounds(content.schema), bundle) : undefined);
    return checks.get(content);
  };
  return (status, contentType, body) => {
    const response = declaredResponse(operation, status);
    if (response === undefined) {
      const declared = operation.responses.map((r) => r.code).join(', ');
      return [violation('status', `the status ${status} is not declared (the document declares ${declared})`)];
    }
    return checkBody(response, contentType, body, checkOf);
  };
}

function checkBody(
  response: IHttpOperationResponse,
  contentType: string | undefined,
  body: Buffer,
  checkOf: (content: IMediaTypeContent) => SchemaCheck | undefined,
): ContractViolation[] {
  const contents = response.contents ?? [];
  if (contents.length === 0 || body.length === 0) return [];
  const mediaType = parseMediaType(contentType);
  const content = mediaType && contents.find((candidate) => mediaTypeAccepts(candidate.mediaType, mediaType.type));
  if (!mediaType || !content) {
    const declared = contents.map((c) => c.mediaType).join(', ');
    return [violation('media-type', `the response's content type (${contentType ?? 'none'}) is not declared for ${response.code}; it declares ${declared}`)];
  }
  if (!isJsonMediaType(mediaType.type)) return [];
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return [violation('body', 'the response body is not valid UTF-8')];
  }
  const parsed = parseExactJson(text);
  if (!parsed.ok) return [violation('body', `the response body is not JSON: ${parsed.reason}`)];
  const diagnostics = checkOf(content)?.(parsed.exact ? validationView(parsed.value) : parsed.value);
  return (diagnostics ?? []).map((diagnostic) => violation('schema', int64Message(diagnostic.message).replace(/^Request body/, 'Response body')));
}

function violation(check: string, message: string): ContractViolation {
  return { side: 'response', check, message };
}
