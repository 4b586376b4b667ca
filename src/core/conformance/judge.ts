/**
 * The one judge of "this answer conforms to its operation", on the pattern of Prism's single
 * validateOutput: `verify`'s checks, `serve --proxy` and the webhooks all ask it, so the same answer
 * gets the same verdict wherever it is seen. It judges, in prism's order:
 * - the status: one the operation declares (exact, `2XX`-style range, or `default`);
 * - the media type: one the declared response lists, when it lists any;
 * - the body: read once as exact JSON, judged by the declared schema in the answer's direction
 *   (allOf merged, writeOnly stripped, true int64 bounds: compileBodyCheck);
 * - the headers the response declares (Content-Type aside, OpenAPI 3 §4.8.17.1), each by its schema.
 * What it returns is data (typed violations); whether a violation fails, warns or is another
 * check's business is the caller's to say.
 */
import type { DiagnosticSeverity, IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { SEVERITY } from '../prism/severity.js';
import { isJsonMediaType, mediaTypeAccepts, mediaTypeOf } from '../http/media-type.js';
import { readAnswerJson, type ParsedJson } from '../json/exact-json.js';
import { declaredResponse, type Operation } from '../openapi/operation.js';
import { bundleOf, compileBodyCheck, compileParameterCheck, type BodyCheck, type ParameterCheck } from '../prism/adapter.js';
import { int64Message } from '../prism/int64-bounds.js';

/** An answer as received: headers by lower-case name, the body as text or as the bytes that came. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
}

export type Violation =
  /** The status is not one the operation declares. */
  | { readonly kind: 'status'; readonly status: number; readonly declared: readonly string[]; readonly message: string }
  /** The Content-Type is missing or not one the declared response lists. */
  | {
      readonly kind: 'media-type';
      readonly status: number;
      readonly contentType: string | undefined;
      readonly declared: readonly string[];
      readonly message: string;
    }
  /** A JSON body was declared and the body is not JSON (or not UTF-8). */
  | {
      readonly kind: 'not-json';
      readonly status: number;
      readonly reason: string;
      readonly content: IMediaTypeContent;
      readonly check: BodyCheck | undefined;
      readonly message: string;
    }
  /** The JSON body breaks its schema; `issues` in prism's words, `check` what judged it. */
  | {
      readonly kind: 'schema';
      readonly status: number;
      readonly issues: readonly string[];
      readonly content: IMediaTypeContent;
      readonly check: BodyCheck;
      readonly message: string;
    }
  /** A declared header is missing or breaks its schema; `schema` is the object schema the headers were judged by. */
  | { readonly kind: 'header'; readonly status: number; readonly issues: readonly string[]; readonly schema: object | undefined; readonly message: string };

export type ViolationKind = Violation['kind'];

/** What was judged: the violations, the declared response the status chose, and what of it was held to the answer. */
export interface Judgement {
  readonly violations: readonly Violation[];
  /** Undefined when the status is not declared, or the operation declares no response at all. */
  readonly response: IHttpOperationResponse | undefined;
  /** The declared JSON content whose schema the body was held to; undefined when no schema applied. */
  readonly bodyContent: IMediaTypeContent | undefined;
  /** Whether the response declares headers (Content-Type aside) that were judged. */
  readonly headersDeclared: boolean;
}

const NOTHING_DECLARED: Judgement = { violations: [], response: undefined, bodyContent: undefined, headersDeclared: false };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Judges `answer` against `operation`. `json` reads the body as JSON when the caller has done so
 * already (the suite reads each answer once for every check); left out, the judge reads it.
 */
export function judgeAnswer(operation: Operation, answer: Answer, json?: () => ParsedJson): Judgement {
  // No response declared at all (OpenAPI 3.1 lets `responses` be left out): nothing to conform to.
  if (operation.responses.length === 0) return NOTHING_DECLARED;
  const response = declaredResponse(operation, answer.status);
  if (response === undefined) {
    const declared = operation.responses.map((r) => r.code);
    const message = `the status ${answer.status} is not declared (the document declares ${declared.join(', ')})`;
    return { ...NOTHING_DECLARED, violations: [{ kind: 'status', status: answer.status, declared, message }] };
  }
  const compiled = compiledFor(operation);
  const content = bodyContentOf(response, answer);
  const headers = compiled.headers(response);
  const violations = [...judgeMediaType(response, answer), ...judgeBody(compiled.body, content, answer, json), ...judgeHeaders(headers, answer)];
  return { violations, response, bodyContent: content, headersDeclared: headers.declared };
}

function judgeMediaType(response: IHttpOperationResponse, answer: Answer): Violation[] {
  const declared = (response.contents ?? []).map((content) => content.mediaType);
  if (declared.length === 0) return [];
  const contentType = answer.headers['content-type'];
  const actual = mediaTypeOf(contentType);
  if (actual !== undefined && declared.some((type) => mediaTypeAccepts(type, actual))) return [];
  const message = `the ${answer.status} answer came with ${contentType === undefined ? 'no content type' : `content type ${contentType}`}; the document declares ${declared.join(' or ')}`;
  return [{ kind: 'media-type', status: answer.status, contentType, declared, message }];
}

/** The declared content the answer claims to be, else the first one (prism's findContentByMediaTypeOrFirst), when it is JSON with a schema. */
function bodyContentOf(response: IHttpOperationResponse, answer: Answer): IMediaTypeContent | undefined {
  const contents = (response.contents ?? []).filter((content) => content.schema !== undefined);
  const actual = mediaTypeOf(answer.headers['content-type']);
  const content = contents.find((c) => actual !== undefined && mediaTypeAccepts(c.mediaType, actual)) ?? contents[0];
  // A schema is held to JSON bodies only: an image/png's `format: binary` string is bytes, which the media type judges.
  return content !== undefined && isJsonMediaType(mediaTypeOf(content.mediaType) ?? '') ? content : undefined;
}

function judgeBody(
  bodyCheck: (content: IMediaTypeContent) => BodyCheck | undefined,
  content: IMediaTypeContent | undefined,
  answer: Answer,
  json: (() => ParsedJson) | undefined,
): Violation[] {
  if (content === undefined) return [];
  const parsed = json?.() ?? readBody(answer.body);
  const status = answer.status;
  const check = bodyCheck(content);
  if (!parsed.ok)
    return [{ kind: 'not-json', status, reason: parsed.reason, content, check, message: `the ${status} answer's body is not JSON: ${parsed.reason}` }];
  if (check === undefined) return [];
  const issues = errorsOf(check(parsed.value, parsed.exact));
  if (issues.length === 0) return [];
  return [{ kind: 'schema', status, issues, content, check, message: `the ${status} answer's body does not match its schema: ${issues.join('; ')}` }];
}

function judgeHeaders(check: HeaderCheck, answer: Answer): Violation[] {
  if (!check.declared) return [];
  const issues = errorsOf(check(answer.headers));
  if (issues.length === 0) return [];
  const message = `the ${answer.status} answer's headers do not match their declarations: ${issues.join('; ')}`;
  return [{ kind: 'header', status: answer.status, issues, schema: check.schema, message }];
}

function readBody(body: string | Uint8Array): ParsedJson {
  if (typeof body === 'string') return body === '' ? { ok: false, reason: 'the body is empty' } : readAnswerJson(body);
  if (body.length === 0) return { ok: false, reason: 'the body is empty' };
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, reason: 'the body is not valid UTF-8' };
  }
  return readAnswerJson(text);
}

/** Prism's errors in its words (int64's bounds said as int64's); a deprecated header that is present is prism's warning, not a departure. */
function errorsOf(diagnostics: ReadonlyArray<{ readonly severity: DiagnosticSeverity; readonly message: string }> | undefined): string[] {
  return (diagnostics ?? []).filter((d) => d.severity === SEVERITY.error).map((d) => int64Message(d.message));
}

/** What judging one operation's answers needs, compiled on first use and kept with the operation. */
interface Compiled {
  body(content: IMediaTypeContent): BodyCheck | undefined;
  headers(response: IHttpOperationResponse): HeaderCheck;
}

type HeaderCheck = ParameterCheck & { readonly declared: boolean };

const compiledOperations = new WeakMap<Operation, Compiled>();

function compiledFor(operation: Operation): Compiled {
  let compiled = compiledOperations.get(operation);
  if (compiled === undefined) {
    const bodies = new Map<IMediaTypeContent, BodyCheck | undefined>();
    const headers = new Map<IHttpOperationResponse, HeaderCheck>();
    compiled = {
      body(content) {
        if (!bodies.has(content)) bodies.set(content, content.schema === undefined ? undefined : compileBodyCheck(content.schema, operation, 'response'));
        return bodies.get(content);
      },
      headers(response) {
        let check = headers.get(response);
        if (check === undefined) {
          const declared = (response.headers ?? []).filter((header) => header.name.toLowerCase() !== 'content-type');
          check = Object.assign(compileParameterCheck(declared, 'header', bundleOf(operation), 'response'), { declared: declared.length > 0 });
          headers.set(response, check);
        }
        return check;
      },
    };
    compiledOperations.set(operation, compiled);
  }
  return compiled;
}

/** Compiles every check an operation's answers need, at start-up rather than at the first answer. */
export function prepareJudge(operation: Operation): void {
  const compiled = compiledFor(operation);
  for (const response of operation.responses) {
    compiled.headers(response);
    for (const content of response.contents ?? []) compiled.body(content);
  }
}
