/**
 * A refusal's body in the document's own shape. For the status chosen (statusOf), the response the
 * document declares for it (the exact code, then its `4XX` range, then `default`) says the media
 * type and schema; the body fills that schema by meaning (error-fields.ts): the refusal's number,
 * its message, the HTTP status, problem details (RFC 9457) for `application/problem+json`. Our
 * `{error, message}` stands where the document declares that shape, no schema, or no response.
 * Compiled once per operation; a refusal only fills a plan.
 */
import { STATUS_CODES } from 'node:http';
import type { IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { ERRORS, errorJson, type Failure } from '../errors.js';
import { isJsonMediaType, mediaTypeOf } from '../http/media-type.js';
import { fill, planBody, type Plan, type RefusalFacts } from './error-fields.js';
import { resolverOf, type Resolve } from './schema-read.js';
import type { Operation } from './operation.js';
import { schemaText } from '../schema/same-schema.js';

/** A refusal as written: its content type and body text. */
export interface RefusalBody {
  readonly contentType: string;
  readonly body: string;
}

/** Words a refusal with `status` as the operation declares it. */
export type RefusalShaper = (refused: Failure, status: number) => RefusalBody;

const JSON_TYPE = 'application/json';

/** Our Error body: what the Plant Store declares, and the stand-in's word where a document declares none. */
export const ERROR_BODY: RefusalShaper = (refused) => ({ contentType: JSON_TYPE, body: errorJson(refused) });

type Shape = (refused: Failure, status: number) => RefusalBody;

/** Compiles the operation's failure responses (4xx, 5xx, their ranges, default) into shapers, once. */
export function compileRefusalShaper(operation: Operation): RefusalShaper {
  const resolve = resolverOf(operation);
  const exact = new Map<number, Shape>();
  const ranges = new Map<number, Shape>();
  let fallback: Shape | undefined;
  for (const response of operation.responses) {
    const code = response.code.toUpperCase();
    if (code === 'DEFAULT') fallback = shapeOf(response, resolve);
    else if (/^[45]XX$/.test(code)) ranges.set(Number(code[0]), shapeOf(response, resolve));
    else if (/^[45]\d\d$/.test(code)) exact.set(Number(code), shapeOf(response, resolve));
  }
  if (exact.size === 0 && ranges.size === 0 && fallback === undefined) return ERROR_BODY;
  return (refused, status) => (exact.get(status) ?? ranges.get(Math.floor(status / 100)) ?? fallback ?? ERROR_BODY)(refused, status);
}

/**
 * The shaper of refusals no operation words (a path the document does not route, a method its path
 * lacks): the failure response most operations declare alike for a 404 (the exact code, its range,
 * `default`), where more than half of them do: DigitalOcean's error (`id`, `message`) on all its
 * operations, Box's on 288 of 296. Else ours, as before.
 */
export function compileCommonRefusalShaper(operations: readonly Operation[]): RefusalShaper {
  const alike = new Map<string, { readonly operation: Operation; readonly response: IHttpOperationResponse; count: number }>();
  for (const operation of operations) {
    const response = notFoundResponse(operation);
    const content = response === undefined ? undefined : chosenContent(response.contents ?? []);
    if (response === undefined || content?.schema === undefined) continue;
    // Declared alike as core's sameSchema reads it (each use of one $ref has its own x-stoplight id); a cyclic schema is not compared.
    const text = schemaText(content.schema);
    if (text === undefined) continue;
    const key = `${content.mediaType} ${text}`;
    const seen = alike.get(key);
    if (seen === undefined) alike.set(key, { operation, response, count: 1 });
    else seen.count += 1;
  }
  const common = [...alike.values()].reduce<{ operation: Operation; response: IHttpOperationResponse; count: number } | undefined>(
    (best, next) => (best === undefined || next.count > best.count ? next : best),
    undefined,
  );
  if (common === undefined || common.count * 2 <= operations.length) return ERROR_BODY;
  const shape = shapeOf(common.response, resolverOf(common.operation));
  return (refused, status) => shape(refused, status);
}

function notFoundResponse(operation: Operation): IHttpOperationResponse | undefined {
  const code = (response: IHttpOperationResponse) => response.code.toUpperCase();
  return (
    operation.responses.find((response) => code(response) === '404') ??
    operation.responses.find((response) => code(response) === '4XX') ??
    operation.responses.find((response) => code(response) === 'DEFAULT')
  );
}

function shapeOf(response: IHttpOperationResponse, resolve: Resolve): Shape {
  const content = chosenContent(response.contents ?? []);
  if (content === undefined) return ERROR_BODY;
  const mediaType = content.mediaType;
  const type = mediaTypeOf(mediaType) ?? JSON_TYPE;
  if (type.startsWith('text/')) return (refused) => ({ contentType: mediaType, body: refused.message });
  const problemJson = type === 'application/problem+json';
  if (!isJsonMediaType(type)) return ERROR_BODY;
  if (content.schema === undefined) return problemJson ? shaped(mediaType, PROBLEM) : (refused) => ({ contentType: mediaType, body: errorJson(refused) });
  const plan = planBody(content.schema as Record<string, unknown>, resolve, problemJson);
  if (isOurs(plan)) return (refused) => ({ contentType: mediaType, body: errorJson(refused) });
  return shaped(mediaType, plan);
}

function shaped(contentType: string, plan: Plan): Shape {
  return (refused, status) => ({ contentType, body: JSON.stringify(fill(plan, factsOf(refused, status))) });
}

/** RFC 9457 problem details, for a problem+json response that declares no schema. */
const PROBLEM: Plan = {
  kind: 'object',
  fields: [
    ['type', { kind: 'fixed', value: 'about:blank' }],
    ['title', { kind: 'text', fact: 'title', maxLength: Number.POSITIVE_INFINITY }],
    ['status', { kind: 'number', candidates: ['status'], bounds: { minimum: 100, maximum: 599, allowed: undefined }, otherwise: 400 }],
    ['detail', { kind: 'text', fact: 'message', maxLength: Number.POSITIVE_INFINITY }],
  ],
};

/** {error: <number>, message: <text>} exactly: written by errorJson, byte for byte as ever. */
function isOurs(plan: Plan): boolean {
  if (plan.kind !== 'object' || plan.fields.length !== 2) return false;
  const [first, second] = plan.fields;
  return (
    first?.[0] === 'error' &&
    first[1].kind === 'number' &&
    first[1].candidates[0] === 'error' &&
    second?.[0] === 'message' &&
    second[1].kind === 'text' &&
    second[1].fact === 'message' &&
    second[1].maxLength === Number.POSITIVE_INFINITY
  );
}

function factsOf(refused: Failure, status: number): RefusalFacts {
  return { error: refused.error, message: refused.message, status, title: STATUS_CODES[status] ?? 'Error', code: ERRORS[refused.entry].code };
}

/** JSON first (application/json, then any +json, problem+json among them), then text, then what is declared. */
function chosenContent(contents: readonly IMediaTypeContent[]): IMediaTypeContent | undefined {
  const essence = (content: IMediaTypeContent) => mediaTypeOf(content.mediaType) ?? '';
  return (
    contents.find((content) => essence(content) === JSON_TYPE) ??
    contents.find((content) => isJsonMediaType(essence(content))) ??
    contents.find((content) => essence(content).startsWith('text/')) ??
    contents[0]
  );
}
