/**
 * Judges a real implementation's answer against the document, as `verify` and Prism's proxy do:
 * is the status declared, is the media type one the response declares, does the JSON body match
 * its schema — read exactly (int64 beyond 2^53 kept whole) and checked with the same Ajv set-up
 * as the request validator — and are the headers the response declares there, each as its schema
 * says (prism's parameter check, compiled once per response). Compiled once per operation.
 */
import { DiagnosticSeverity, type IHttpOperationResponse, type IMediaTypeContent } from '@stoplight/types';
import { parseExactJson } from '../core/json/exact-json.js';
import { declaredResponse, type Operation } from '../core/openapi/operation.js';
import { isJsonMediaType, mediaTypeAccepts, parseMediaType } from '../core/http/media-type.js';
import { compileParameterCheck, compileSchemaCheck, type ParameterCheck, type SchemaCheck } from '../core/prism/adapter.js';
import { int64Message, validationView, widenInt64Bounds } from '../core/prism/int64-bounds.js';
import type { ContractViolation } from '../journal/journal.js';

/** `headers` by lower-case name, as the real implementation sent them. */
export type ResponseCheck = (status: number, headers: Readonly<Record<string, string>>, body: Buffer) => ContractViolation[];

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function compileResponseCheck(operation: Operation): ResponseCheck {
  const bundle: unknown = (operation as { __bundled__?: unknown }).__bundled__;
  const checks = new Map<IMediaTypeContent, SchemaCheck | undefined>();
  const checkOf = (content: IMediaTypeContent) => {
    if (!checks.has(content)) checks.set(content, content.schema ? compileSchemaCheck(widenInt64Bounds(content.schema), bundle) : undefined);
    return checks.get(content);
  };
  const headerChecks = new Map<IHttpOperationResponse, ParameterCheck>();
  const headerCheckOf = (response: IHttpOperationResponse) => {
    let check = headerChecks.get(response);
    if (check === undefined) headerChecks.set(response, (check = compileHeaderCheck(response, bundle)));
    return check;
  };
  return (status, headers, body) => {
    const response = declaredResponse(operation, status);
    if (response === undefined) {
      const declared = operation.responses.map((r) => r.code).join(', ');
      return [violation('status', `the status ${status} is not declared (the document declares ${declared})`)];
    }
    return [...checkHeaders(headerCheckOf(response), headers), ...checkBody(response, headers['content-type'], body, checkOf)];
  };
}

/** OpenAPI 3 §4.8.17.1: a declared Content-Type header is ignored (the media types say it). */
function compileHeaderCheck(response: IHttpOperationResponse, bundle: unknown): ParameterCheck {
  const declared = (response.headers ?? []).filter((header) => header.name.toLowerCase() !== 'content-type');
  return compileParameterCheck(declared, 'header', bundle, 'response');
}

function checkHeaders(check: ParameterCheck, headers: Readonly<Record<string, string>>): ContractViolation[] {
  // A deprecated header that is present is a warning in prism's terms, not a departure from the contract.
  const errors = (check(headers) ?? []).filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error);
  return errors.map((diagnostic) => violation('header', diagnostic.message));
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
