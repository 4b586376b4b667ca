import type { IHttpOperation, IMediaTypeContent } from '@stoplight/types';
import { failure, type Failure } from '../core/errors.js';
import { compileBodyCheck, type BodyCheck } from '../core/prism/adapter.js';
import { readRequestJson, type JsonValue } from '../core/json/exact-json.js';
import { int64Message } from '../core/prism/int64-bounds.js';
import { isJsonMediaType, isTextMediaType, mediaTypeAccepts, mediaTypeOf, parseMediaType } from '../core/http/media-type.js';
import { compileFormReader, FORM_MEDIA_TYPE } from './form-body.js';
import { compilePartsCheck, MULTIPART_MEDIA_TYPE } from './multipart.js';
import { compileParameterValidator } from './parameters.js';

/** The request as validation needs it; the body is the raw bytes as received. */
export interface RequestInput {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  /** The Content-Type header, read on every request; `headers` is built only when something needs them all. */
  readonly contentType: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export type Validation = { readonly ok: true; readonly body: JsonValue | string | Buffer | undefined } | { readonly ok: false; readonly failure: Failure };

export type RequestValidator = (request: RequestInput) => Validation;

/** Messages shown in one Error body; the rest are counted. */
const MESSAGES_SHOWN = 5;

interface PrismDiagnostic {
  readonly message: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Compiles what an operation accepts into one function, once per document. The body schema is
 * compiled with prism-http's own Ajv set-up and error wording (compileBodyCheck, the one recipe),
 * on a schema whose int64 bounds are the true ones; parameters, when the operation declares any, are compiled
 * the same way (compileParameterCheck, judged as prism-http's validateInput judges them). So prism
 * stays the reference, without its per-request cost.
 */
export function compileRequestValidator(operation: IHttpOperation): RequestValidator {
  const requestBody = operation.request?.body;
  const contents: ReadonlyArray<IMediaTypeContent> = requestBody?.contents ?? [];
  const bodyRequired = requestBody?.required === true;
  const checks = new Map<IMediaTypeContent, BodyCheck | undefined>(
    contents.map((content) => [content, content.schema ? compileBodyCheck(content.schema, operation, 'request') : undefined]),
  );
  const forms = new Map(
    contents.flatMap((content) =>
      content.schema && mediaTypeOf(content.mediaType) === FORM_MEDIA_TYPE ? [[content, compileFormReader(content.schema, operation)] as const] : [],
    ),
  );
  const multiparts = new Map(
    contents.flatMap((content) => {
      const check = content.schema && mediaTypeOf(content.mediaType) === MULTIPART_MEDIA_TYPE ? compilePartsCheck(content.schema, operation) : undefined;
      return check ? [[content, check] as const] : [];
    }),
  );
  // Clients send one or two Content-Type values over and over: match each once.
  const contentFor = memoize((type: string) => contents.find((candidate) => mediaTypeAccepts(candidate.mediaType, type)));
  const validateParameters = compileParameterValidator(operation, violation);
  const accepted = contents.map((content) => content.mediaType).join(', ');

  return (request) => {
    const parameterFailure = validateParameters(request);
    if (parameterFailure) return { ok: false, failure: parameterFailure };

    if (request.body.length === 0) {
      return bodyRequired
        ? { ok: false, failure: failure('badRequest', `the request body is empty; this operation requires a body (${accepted})`) }
        : { ok: true, body: undefined };
    }
    if (contents.length === 0) return { ok: true, body: undefined };

    const mediaType = parseMediaType(request.contentType);
    const content = mediaType && contentFor(mediaType.type);
    if (!mediaType || !content) {
      const sent = request.contentType ?? 'no Content-Type header';
      return { ok: false, failure: failure('unsupportedMediaType', `unsupported content type (${sent}); send ${accepted}`) };
    }
    if (mediaType.charset !== undefined && mediaType.charset !== 'utf-8' && mediaType.charset !== 'utf8') {
      return { ok: false, failure: failure('unsupportedMediaType', `unsupported charset ${mediaType.charset}; send UTF-8`) };
    }
    const parts = multiparts.get(content);
    if (parts !== undefined && mediaType.type === MULTIPART_MEDIA_TYPE) {
      const missing = parts(request.body);
      if (missing.length === 0) return { ok: true, body: undefined };
      return {
        ok: false,
        failure: failure(
          'schemaViolation',
          `the multipart body lacks the required part${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')}`,
        ),
      };
    }
    // A binary body (an image) is the bytes as sent: there is no text in it to check.
    if (!isTextMediaType(mediaType.type)) return { ok: true, body: request.body };
    let text: string;
    try {
      text = utf8.decode(request.body);
    } catch {
      return { ok: false, failure: failure('badRequest', 'the request body is not valid UTF-8') };
    }
    const form = forms.get(content);
    if (form !== undefined && mediaType.type === FORM_MEDIA_TYPE) return checked(form(text), checks.get(content));
    if (!isJsonMediaType(mediaType.type)) return { ok: true, body: text };

    const parsed = readRequestJson(text);
    if (!parsed.ok) return { ok: false, failure: failure('badRequest', parsed.reason) };
    const check = checks.get(content);
    if (check === undefined) return { ok: true, body: parsed.value };
    const diagnostics = check(parsed.value, parsed.exact);
    if (diagnostics === undefined) return { ok: true, body: parsed.value };
    return { ok: false, failure: violation(diagnostics) };
  };
}

/** A body read from a form, judged by its schema as a JSON body is. */
function checked(value: JsonValue, check: BodyCheck | undefined): Validation {
  const diagnostics = check?.(value);
  return diagnostics === undefined ? { ok: true, body: value } : { ok: false, failure: violation(diagnostics) };
}

/** A cache for a function of a header value; a client sending ever-new values cannot grow it past a bound. */
function memoize<T>(compute: (key: string) => T, bound = 64): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    if (known.has(key)) return known.get(key) as T;
    const value = compute(key);
    if (known.size >= bound) known.clear();
    known.set(key, value);
    return value;
  };
}

/** The Error shows the first few; `details` keeps them all, for the debug log. */
function violation(diagnostics: ReadonlyArray<PrismDiagnostic>, entry: 'schemaViolation' | 'invalidId' = 'schemaViolation'): Failure {
  return { ...failure(entry, describe(diagnostics)), details: diagnostics.map((diagnostic) => int64Message(diagnostic.message)) };
}

function describe(diagnostics: ReadonlyArray<PrismDiagnostic>): string {
  const messages = diagnostics.slice(0, MESSAGES_SHOWN).map((diagnostic) => int64Message(diagnostic.message));
  const more = diagnostics.length - MESSAGES_SHOWN;
  return messages.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
