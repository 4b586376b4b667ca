import type { IHttpOperation } from '@stoplight/types';
import type { IHttpOperationConfig, IHttpRequest } from '@stoplight/prism-http';
import { failure } from '../core/errors.js';
import { mock } from '../core/prism/adapter.js';
import { exampleAnswer, type MockedResponse } from './example-answer.js';
import type { MockPreferences } from '../http/prefer.js';
import { toJsonText, type JsonValue } from '../core/json/exact-json.js';
import { echoSent } from './mock-echo.js';
import { breaksBodySchema, requiredFillsFor, withValidHeaders } from './mock-conformance.js';
import { withFills, type RequiredFill } from './mock-mend.js';
import type { Answer, Outcome } from '../http/answer.js';

export type { MockPreferences } from '../http/prefer.js';

/** The pino logger prism's mocker takes, named by its signature rather than a direct pino import. */
type MockerLogger = Parameters<ReturnType<typeof mock>>[0];

/** prism's mocker logs through pino; the stand-in keeps its own log, so prism's goes nowhere. */
const silentLogger: MockerLogger = new Proxy({} as MockerLogger, {
  get: (_target, property) => (property === 'child' ? () => silentLogger : () => undefined),
});

/**
 * Answers an operation the stand-in keeps no state for with prism-http's mocked response:
 * the document's example, else one generated from the schema (saying back what a JSON body sent,
 * see mock-echo.ts); 204 where it declares no response. Where the document's examples make the
 * answer, it is taken from them without loading the mocker (see example-answer.ts).
 */
export function mockOperation(operation: IHttpOperation, request: IHttpRequest, preferences: MockPreferences = {}): Outcome {
  // No response declared (OpenAPI 3.1 allows it): nothing to mock, and nothing the client did wrong.
  if (operation.responses.length === 0 && preferences.code === undefined && preferences.example === undefined) {
    return { ok: true, answer: { status: 204, headers: {}, body: '' } };
  }
  const fromExamples = exampleAnswer(operation, request.headers?.accept, preferences);
  if (fromExamples !== undefined) return answerOf(operation, request, preferences, fromExamples);
  // The mocker writes into its config (accepted media types), so each call gets its own.
  const config: IHttpOperationConfig = {
    dynamic: preferences.dynamic ?? false,
    ...(preferences.code !== undefined ? { code: preferences.code } : {}),
    ...(preferences.example !== undefined ? { exampleKey: preferences.example } : {}),
  };
  const result = mock({ resource: operation, input: { data: request, validations: [] }, config })(silentLogger);
  if (result._tag === 'Right' && config.dynamic === false && preferences.code === undefined && preferences.example === undefined) {
    return conformingAnswer(operation, request, preferences, result.right);
  }
  if (result._tag === 'Left') {
    const error = result.left as Error & { detail?: string };
    const cause = error.detail ?? error.message;
    // A preference the document cannot meet (an undeclared code, an unknown example) is the client's to change.
    if (config.code !== undefined || config.exampleKey !== undefined) {
      return { ok: false, failure: failure('badRequest', `the Prefer header asks for an answer the document does not have: ${cause}`) };
    }
    return { ok: false, failure: failure('internal', `no mocked answer for ${operation.method.toUpperCase()} ${operation.path}: ${cause}`) };
  }
  return answerOf(operation, request, preferences, result.right);
}

/**
 * The mocker's static answer where it keeps to the document, else the same with the required
 * properties it lacks added (mock-mend.ts: Box's examples of a shared link leave out the `accessed`
 * its schema requires, and so does the generator), else a generated one that keeps to it: prism's
 * static values ignore a string's pattern ("string" where Eclipse Ditto's definitions must read
 * ns:name:version), so the stand-in broke the document it stands in for. Judged by the body check
 * verify's judge uses (mock-conformance.ts), at an answer's first mocking: what it found is kept per
 * operation and status, so generating (json-schema-faker, which keeps patterns) is paid only where
 * it helps, and an answer no way can make valid is not generated again at each request.
 */
function conformingAnswer(operation: IHttpOperation, request: IHttpRequest, preferences: MockPreferences, mocked: MockedAnswer): Outcome {
  const outcome = answerOf(operation, request, preferences, mocked);
  const ways = chosenWays.get(operation) ?? new Map<number, Way>();
  chosenWays.set(operation, ways);
  const chosen = ways.get(mocked.statusCode);
  if (!outcome.ok || chosen === 'static') return outcome;
  if (typeof chosen === 'object') return answerOf(operation, request, preferences, { ...mocked, body: withFills(mocked.body as JsonValue, chosen) });
  // Chosen on the answer before what was sent is said back: a first request whose values hide a broken example must not decide for the rest.
  const plain = chosen === undefined ? answerOf(operation, request, preferences, mocked, false) : undefined;
  if (plain?.ok === true && !breaks(operation, plain.answer)) {
    ways.set(mocked.statusCode, 'static');
    return outcome;
  }
  const fills = plain?.ok === true ? mendable(operation, plain.answer) : undefined;
  if (fills !== undefined) {
    ways.set(mocked.statusCode, fills);
    return answerOf(operation, request, preferences, { ...mocked, body: withFills(mocked.body as JsonValue, fills) });
  }
  const config: IHttpOperationConfig = { dynamic: true, code: mocked.statusCode };
  const generated = mock({ resource: operation, input: { data: request, validations: [] }, config })(silentLogger);
  const regenerated = generated._tag === 'Left' ? undefined : answerOf(operation, request, preferences, generated.right);
  const keeps = regenerated?.ok === true && !breaks(operation, regenerated.answer);
  if (chosen === undefined) ways.set(mocked.statusCode, keeps ? 'generated' : 'static');
  return keeps && regenerated !== undefined ? regenerated : outcome;
}

/** Per operation and status, which way of mocking keeps to the document (see conformingAnswer): the static answer as it is, completed by these fills, or generated. */
type Way = 'static' | 'generated' | readonly RequiredFill[];
const chosenWays = new WeakMap<IHttpOperation, Map<number, Way>>();

function mendable(operation: IHttpOperation, answer: Answer): readonly RequiredFill[] | undefined {
  return typeof answer.body === 'string' ? requiredFillsFor(operation, answer.status, answer.headers['content-type'], answer.body) : undefined;
}

function breaks(operation: IHttpOperation, answer: Answer): boolean {
  return typeof answer.body === 'string' && breaksBodySchema(operation, answer.status, answer.headers['content-type'], answer.body);
}

type MockedAnswer = { readonly statusCode: number; readonly headers?: MockedResponse['headers']; readonly body?: unknown };

/** The mocker's answer (or the same from the examples) as the stand-in sends it. */
function answerOf(operation: IHttpOperation, request: IHttpRequest, preferences: MockPreferences, mocked: MockedAnswer, echo = true): Outcome {
  const { statusCode, headers = {} } = mocked;
  // A Prefer header asks for prism's answer (the document's example, or a generated one) as prism gives it.
  const asked = preferences.code !== undefined || preferences.example !== undefined || preferences.dynamic !== undefined;
  const body = asked || !echo ? mocked.body : echoSent(operation, statusCode, request.body, mocked.body);
  // What was sent may hold exact int64s (bigints): an answer that says it back is written exactly.
  const echoed = body !== mocked.body;
  // prism spells the header as it likes ("Content-type"): read it by its lower-case name.
  const spelled = lowerCaseKeys(headers);
  const answered = asked ? spelled : withValidHeaders(operation, statusCode, spelled);
  const contentType = answered['content-type'];
  const text =
    body === undefined ? '' : typeof body === 'string' && !isJson(contentType) ? body : echoed ? toJsonText(body as JsonValue) : JSON.stringify(body);
  return { ok: true, answer: { status: statusCode, headers: answered, body: text } };
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /[/+]json\b/i.test(contentType);
}

function lowerCaseKeys(headers: MockedResponse['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  // Typed string by prism, though a header's example may be a number: passed on as it comes.
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value as string;
  return result;
}
