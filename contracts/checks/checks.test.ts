/** Each check on hand-made exchanges: what passes, what fails, what only warns, what is none of its business. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { CHECKS, judge, type CheckContext, type Exchange, type ExchangeFacts } from './index.js';
import { answer, badRequest, createPlantContext, exchange, fresh, literal, ok, plant } from './exchanges.test-support.js';
import { authEnforced } from './auth-enforced.js';
import { contentTypeConformance } from './content-type-conformance.js';
import { duplicateIds } from './duplicate-ids.js';
import { negativeRejection } from './negative-rejection.js';
import { noServerErrors } from './no-server-errors.js';
import { positiveAcceptance } from './positive-acceptance.js';
import { statefulModel } from './stateful-model.js';
import { statusConformance } from './status-conformance.js';
import { createdItemListed, listLimitRespected } from './resource-lifecycle.js';

let context: CheckContext;
beforeAll(async () => {
  context = await createPlantContext();
});

describe('positive-acceptance', () => {
  it('passes any 2xx and leaves 5xx and transport errors to no-server-errors', () => {
    expect(positiveAcceptance.judge(exchange({}, ok), context)?.outcome).toBe('pass');
    expect(positiveAcceptance.judge(exchange({}, answer(500, {})), context)).toBeUndefined();
    expect(positiveAcceptance.judge(exchange({}, { headers: {}, body: '', durationMs: 1, error: { kind: 'timeout', message: 't' } }), context)).toBeUndefined();
  });

  it('leaves an edge id unjudged when its retry failed (no-server-errors reports that), but not a fresh one', () => {
    const failedRetry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: answer(500, {}) };
    const taken = answer(400, { error: 409, message: 'taken' });
    expect(positiveAcceptance.judge(exchange({ ...literal, retry: failedRetry }, taken), context)).toBeUndefined();
    expect(positiveAcceptance.judge(exchange({ ...fresh, retry: failedRetry }, taken), context)?.outcome).toBe('fail');
  });

  it('fails a refusal that a retry with a never-used id confirms', () => {
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, body: '{"id":5}', label: 'retry' }, response: badRequest };
    const verdict = positiveAcceptance.judge(exchange({ ...literal, retry }, badRequest), context);
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.outcome === 'fail' && verdict.evidence).toEqual(retry);
  });

  it('allows the refusal of an edge id that the target may hold from an earlier run', () => {
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: ok };
    expect(positiveAcceptance.judge(exchange({ ...literal, retry }, answer(400, { error: 409, message: 'taken' })), context)?.outcome).toBe('pass');
  });

  it('fails the refusal of a fresh id when the same plant is accepted under another', () => {
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: ok };
    const verdict = positiveAcceptance.judge(exchange({ ...fresh, retry }, answer(400, { error: 409, message: 'taken' })), context);
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.outcome === 'fail' && verdict.message).toMatch(/no earlier request used/);
  });

  it('judges only valid creates', () => {
    expect(positiveAcceptance.judge(exchange({ role: 'retry' }, badRequest), context)).toBeUndefined();
    expect(positiveAcceptance.judge(exchange({ role: 'reject', kind: 'invalid' }, badRequest), context)).toBeUndefined();
  });
});

describe('negative-rejection and auth-enforced', () => {
  it('pass a 4xx, fail a 2xx or 3xx, leave 5xx alone', () => {
    const invalid = { role: 'reject' as const, kind: 'invalid' as const };
    expect(negativeRejection.judge(exchange(invalid, badRequest), context)?.outcome).toBe('pass');
    expect(negativeRejection.judge(exchange(invalid, answer(422, {})), context)?.outcome).toBe('pass');
    expect(negativeRejection.judge(exchange(invalid, ok), context)?.outcome).toBe('fail');
    expect(negativeRejection.judge(exchange(invalid, answer(302, '')), context)?.outcome).toBe('fail');
    expect(negativeRejection.judge(exchange(invalid, answer(503, '')), context)).toBeUndefined();
    expect(negativeRejection.judge(exchange({}, ok), context)).toBeUndefined();
  });

  it('auth-enforced judges only credential cases and fails any 2xx', () => {
    const auth = { role: 'reject' as const, kind: 'invalid' as const, target: 'auth' as const };
    expect(authEnforced.judge(exchange(auth, answer(401, {})), context)?.outcome).toBe('pass');
    expect(authEnforced.judge(exchange(auth, answer(201, {})), context)?.outcome).toBe('fail');
    expect(authEnforced.judge(exchange({ ...auth, target: 'body' }, ok), context)).toBeUndefined();
  });

  it('auth-enforced fails a session traded for a credential the target never issued, only where it is known to check credentials', () => {
    const drawn = { unissuedCredential: 'a refresh token this run drew, which the target never issued' };
    const checked = { ...context, tokensValidated: true };
    const traded = authEnforced.judge(exchange(drawn, ok), checked);
    expect(traded?.outcome).toBe('fail');
    expect(traded?.outcome === 'fail' && traded.message).toMatch(
      /^a refresh token this run drew, which the target never issued, was traded for a session \(2xx\): /,
    );
    expect(traded?.outcome === 'fail' && traded.expectation).toEqual({ kind: 'not-status-class', classes: [2] });
    expect(authEnforced.judge(exchange(drawn, answer(401, {})), checked)?.outcome).toBe('pass');
    // Never shown to check credentials: not blamed.
    expect(authEnforced.judge(exchange(drawn, ok), context)).toBeUndefined();
    // An invalid body is negative-rejection's, whatever it presents.
    expect(authEnforced.judge(exchange({ ...drawn, role: 'reject', kind: 'invalid' }, ok), checked)).toBeUndefined();
  });
});

describe('no-server-errors', () => {
  it('fails 5xx, timeouts and dropped connections, passes the rest', () => {
    expect(noServerErrors.judge(exchange({}, badRequest), context)?.outcome).toBe('pass');
    expect(noServerErrors.judge(exchange({}, answer(500, '')), context)?.outcome).toBe('fail');
    const timeout = noServerErrors.judge(
      exchange({}, { headers: {}, body: '', durationMs: 5000, error: { kind: 'timeout', message: 'no complete answer' } }),
      context,
    );
    expect(timeout?.outcome === 'fail' && timeout.message).toMatch(/did not answer in time/);
    const dropped = noServerErrors.judge(
      exchange({}, { headers: {}, body: '', durationMs: 1, error: { kind: 'connection', message: 'other side closed' } }),
      context,
    );
    expect(dropped?.outcome === 'fail' && dropped.message).toMatch(/dropped/);
  });
});

describe('status-conformance', () => {
  it('passes declared statuses and fails undeclared ones (404, 405, 201, 422)', () => {
    expect(statusConformance.judge(exchange({}, ok), context)?.outcome).toBe('pass');
    expect(statusConformance.judge(exchange({}, badRequest), context)?.outcome).toBe('pass');
    for (const status of [201, 404, 405, 422]) {
      expect(statusConformance.judge(exchange({}, answer(status, {})), context)?.outcome, String(status)).toBe('fail');
    }
    expect(statusConformance.judge(exchange({}, answer(500, {})), context)).toBeUndefined();
  });

  it('only warns where the document is silent: 401 for missing credentials, 409 for a taken id', () => {
    const auth = exchange({ role: 'reject', kind: 'invalid', target: 'auth' }, answer(401, {}));
    expect(statusConformance.judge(auth, context)?.outcome).toBe('warn');
    const repeat = exchange({ role: 'repeat', expect: 'refuse' }, answer(409, {}));
    expect(statusConformance.judge(repeat, context)?.outcome).toBe('warn');
    // An edge id left by an earlier run, answered 409, while the same plant under a fresh id is accepted.
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: ok };
    expect(statusConformance.judge(exchange({ ...literal, retry }, answer(409, {})), context)?.outcome).toBe('warn');
    expect(statusConformance.judge(exchange({}, answer(409, {})), context)?.outcome).toBe('fail');
    // A 401 for a request with valid credentials is not the document's silence: it fails.
    expect(statusConformance.judge(exchange({}, answer(401, {})), context)?.outcome).toBe('fail');
  });

  it("words the warning from the operation's own declarations, not the Plant Store's", () => {
    const declaring = (...codes: string[]) => ({
      ...context,
      operation: { ...context.operation, responses: codes.map((code) => ({ code, contents: [] })) } as unknown as Operation,
    });
    const auth = exchange({ role: 'reject', kind: 'invalid', target: 'auth' }, answer(401, {}));
    const message = (verdict: ReturnType<typeof statusConformance.judge>) => (verdict?.outcome === 'warn' ? verdict.message : '');
    expect(message(statusConformance.judge(auth, declaring('201', '422')))).toMatch(
      /the document declares 422 for this operation's failures, none for refused credentials/,
    );
    expect(message(statusConformance.judge(auth, declaring('200', '400')))).toMatch(/the document declares 400 for this operation's failures/);
    const contentType = exchange({ role: 'reject', kind: 'invalid', target: 'content-type' }, answer(415, {}));
    expect(message(statusConformance.judge(contentType, declaring('201', '4XX', 'default')))).toBe('');
    expect(message(statusConformance.judge(contentType, declaring('201', '404')))).toMatch(
      /declares 404 for this operation's failures, none for an unsupported content type/,
    );
  });
});

describe('status-conformance where the document declares no failure status', () => {
  const only200 = (path: string) => ({
    operation: { ...context.operation, path, responses: [{ code: '200', contents: [] }] } as unknown as Operation,
    expectUniqueIds: false,
  });

  it('only warns for 400 to an invalid request and 404 on an item path; fails them where a failure status is declared', () => {
    const invalid = exchange({ kind: 'invalid', target: 'parameter' }, badRequest);
    expect(statusConformance.judge(invalid, only200('/tickets'))?.outcome).toBe('warn');
    expect(statusConformance.judge(exchange({}, answer(404, {})), only200('/tickets/{ticketId}'))?.outcome).toBe('warn');
    // A valid request refused 400, a 404 on the collection, a 422: still failures.
    expect(statusConformance.judge(exchange({}, badRequest), only200('/tickets'))?.outcome).toBe('fail');
    expect(statusConformance.judge(exchange({}, answer(404, {})), only200('/tickets'))?.outcome).toBe('fail');
    expect(statusConformance.judge(exchange({ kind: 'invalid', target: 'parameter' }, answer(422, {})), only200('/tickets'))?.outcome).toBe('fail');
    // createPlant declares 400: a 404 there is not the document's silence.
    expect(
      statusConformance.judge(exchange({}, answer(404, {})), { ...context, operation: { ...context.operation, path: '/plants/{id}' } as Operation })?.outcome,
    ).toBe('fail');
  });

  it("names the document's silence for a 409 to a taken id (the only way a correct server can refuse it there)", () => {
    const retry = { request: { method: 'POST', url: 'http://h/parts', headers: {}, label: 'retry' }, response: ok };
    const taken = exchange({ id: { value: '', freshness: 'literal', property: 'sku' }, retry }, answer(409, { error: 409, message: 'taken' }));
    const verdict = statusConformance.judge(taken, only200('/parts'));
    expect(verdict?.outcome).toBe('warn');
    expect(verdict?.outcome === 'warn' && verdict.message).toMatch(/the document declares no failure status for this operation; .*409/);
  });

  it('names the silence for a 409 to the lifecycle’s create again of a held item’s id, as for the duplicate-ids pair', () => {
    const again = exchange(
      { role: 'lifecycle', kind: 'valid', target: 'body', state: { step: 'duplicate', held: [], deleted: [], holds: 1 } },
      answer(409, {}),
    );
    const verdict = statusConformance.judge(again, only200('/notes'));
    expect(verdict?.outcome).toBe('warn');
    expect(verdict?.outcome === 'warn' && verdict.message).toMatch(/declares no failure status for this operation; .*409/);
    // Any other lifecycle step answered 409 there is no taken id: it fails.
    const create = exchange({ role: 'lifecycle', kind: 'valid', target: 'body', state: { step: 'create', held: [], deleted: [], holds: 0 } }, answer(409, {}));
    expect(statusConformance.judge(create, only200('/notes'))?.outcome).toBe('fail');
  });

  it('counts an operation that declares only 401 or 403 as silent on invalid requests (Eclipse Ditto’s PUT /devops/logging: 201, 401)', () => {
    const declaring = (...codes: string[]) => ({
      operation: { ...context.operation, path: '/devops/logging', responses: codes.map((code) => ({ code, contents: [] })) } as unknown as Operation,
      expectUniqueIds: false,
    });
    const invalid = exchange({ kind: 'invalid', target: 'body' }, badRequest);
    const verdict = statusConformance.judge(invalid, declaring('201', '401'));
    expect(verdict?.outcome).toBe('warn');
    expect(verdict?.outcome === 'warn' && verdict.message).toMatch(/declares failure statuses for refused credentials only \(401\)/);
    expect(statusConformance.judge(invalid, declaring('201', '401', '403'))?.outcome).toBe('warn');
    // Still failures: a 400 where 422 is declared too, a valid request refused, a refused credential answered 400 where 401 is declared.
    expect(statusConformance.judge(invalid, declaring('201', '401', '422'))?.outcome).toBe('fail');
    expect(statusConformance.judge(exchange({}, badRequest), declaring('201', '401'))?.outcome).toBe('fail');
    expect(statusConformance.judge(exchange({ kind: 'invalid', target: 'auth' }, badRequest), declaring('201', '401'))?.outcome).toBe('fail');
  });
});

describe('status-conformance where no declared failure says a request is invalid', () => {
  it('warns of a 400 to an invalid request where only 403 and 404 are declared (Ory Kratos’s GET /self-service/errors: 200, 403, 404, 500)', () => {
    const declaring = (...codes: string[]) => ({
      operation: { ...context.operation, path: '/self-service/errors', responses: codes.map((code) => ({ code, contents: [] })) } as unknown as Operation,
      expectUniqueIds: false,
    });
    const missingId = exchange({ kind: 'invalid', target: 'parameter' }, badRequest);
    const verdict = statusConformance.judge(missingId, declaring('200', '403', '404', '500'));
    expect(verdict?.outcome).toBe('warn');
    expect(verdict?.outcome === 'warn' && verdict.message).toMatch(/declares failure statuses for refused credentials and absent items only \(403, 404\)/);
    // Still failures: a valid request refused 400, and a 400 where a status for invalid requests (422) is declared.
    expect(statusConformance.judge(exchange({}, badRequest), declaring('200', '403', '404'))?.outcome).toBe('fail');
    expect(statusConformance.judge(missingId, declaring('200', '404', '422'))?.outcome).toBe('fail');
  });
});

describe('positive-acceptance of string ids', () => {
  const learnt = { status: 409, code: '409', message: 'a part with id # already exists' };
  const accepted = {
    request: { method: 'POST', url: 'http://h/parts', headers: {}, body: '{"code":"","sku":"k3x9q2m8a7b6c5d4"}', label: 'retry' },
    response: ok,
  };
  const refusal = (id: string) => answer(409, { error: 409, message: `a part with id ${JSON.stringify(id)} already exists` });

  it('excuses a literal string id refused the way this target refuses a taken one, whatever the id', () => {
    for (const id of ['', '🌱', 'a"b', 'lily']) {
      const taken = exchange({ id: { value: id, freshness: 'literal', property: 'sku' }, retry: accepted }, refusal(id));
      expect(positiveAcceptance.judge(taken, { ...context, duplicateRefusal: learnt })?.outcome, id).toBe('pass');
    }
  });

  it('fails a fresh string id refused when the same part is accepted under another, naming both ids', () => {
    const refused = exchange({ id: { value: 'q1w2e3r4t5y6u7i8', freshness: 'fresh', property: 'sku' }, retry: accepted }, refusal('q1w2e3r4t5y6u7i8'));
    const verdict = positiveAcceptance.judge(refused, { ...context, duplicateRefusal: learnt });
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.outcome === 'fail' && verdict.message).toContain(
      'its id "q1w2e3r4t5y6u7i8", which no earlier request used (the same item with id "k3x9q2m8a7b6c5d4"',
    );
  });

  it('excuses a literal id without a retry (none can be drawn) only when refused the learnt way', () => {
    const literalSku = { id: { value: 'a', freshness: 'literal' as const, property: 'sku' } };
    expect(positiveAcceptance.judge(exchange(literalSku, refusal('a')), { ...context, duplicateRefusal: learnt })?.outcome).toBe('pass');
    expect(positiveAcceptance.judge(exchange(literalSku, refusal('a')), context)?.outcome).toBe('fail');
    expect(positiveAcceptance.judge(exchange(literalSku, answer(400, { error: 400, message: 'no' })), { ...context, duplicateRefusal: learnt })?.outcome).toBe(
      'fail',
    );
  });

  it('fails a literal string id refused some other way', () => {
    const other = exchange(
      { id: { value: 'lily', freshness: 'literal', property: 'sku' }, retry: accepted },
      answer(400, { error: 400, message: 'sku too short' }),
    );
    expect(positiveAcceptance.judge(other, { ...context, duplicateRefusal: learnt })?.outcome).toBe('fail');
  });
});

describe('status-conformance where the operation declares no responses at all', () => {
  it('has nothing to judge: any status is the server’s (OpenAPI 3.1 lets responses be left out)', () => {
    const none = { operation: { ...context.operation, path: '/users', responses: [] } as unknown as Operation, expectUniqueIds: false };
    expect(statusConformance.judge(exchange({}, answer(204, '')), none)).toBeUndefined();
    expect(statusConformance.judge(exchange({ kind: 'invalid', target: 'auth' }, answer(401, {})), none)).toBeUndefined();
  });
});

describe('content-type-conformance', () => {
  it('accepts the declared media type with parameters, refuses others and a missing one', () => {
    expect(contentTypeConformance.judge(exchange({}, ok), context)?.outcome).toBe('pass');
    expect(contentTypeConformance.judge(exchange({}, answer(200, {}, { 'content-type': 'APPLICATION/JSON' })), context)?.outcome).toBe('pass');
    expect(contentTypeConformance.judge(exchange({}, answer(200, {}, { 'content-type': 'text/plain' })), context)?.outcome).toBe('fail');
    expect(contentTypeConformance.judge(exchange({}, answer(400, {}, {})), context)?.outcome).toBe('fail');
    // Nothing is declared for a 401: nothing to judge.
    expect(contentTypeConformance.judge(exchange({}, answer(401, {}, { 'content-type': 'text/html' })), context)).toBeUndefined();
  });
});

describe('duplicate-ids', () => {
  it('a repeat must not crash, and must be refused only with expectUniqueIds', () => {
    const repeat = { role: 'repeat' as const, expect: 'refuse' as const };
    expect(duplicateIds.judge(exchange(repeat, answer(500, '')), context)?.outcome).toBe('fail');
    expect(duplicateIds.judge(exchange(repeat, ok), context)?.outcome).toBe('pass');
    expect(duplicateIds.judge(exchange(repeat, ok), { ...context, expectUniqueIds: true })?.outcome).toBe('fail');
    expect(duplicateIds.judge(exchange(repeat, answer(400, { error: 409, message: 'taken' })), { ...context, expectUniqueIds: true })?.outcome).toBe('pass');
  });

  it('a refused fresh neighbour above 2^53 fails when the plant is accepted under another id', () => {
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: ok };
    const neighbour = { role: 'neighbour' as const, expect: 'accept' as const, retry };
    expect(duplicateIds.judge(exchange({ ...neighbour, ...fresh }, badRequest), context)?.outcome).toBe('fail');
    // The literal 2^53+1 may be left over from an earlier run: no verdict.
    expect(duplicateIds.judge(exchange({ ...neighbour, ...literal }, badRequest), context)).toBeUndefined();
    // Refused also under another id: the plant was refused, not the id.
    expect(duplicateIds.judge(exchange({ ...neighbour, ...fresh, retry: { ...retry, response: badRequest } }, badRequest), context)).toBeUndefined();
    expect(duplicateIds.judge(exchange({ ...neighbour, ...fresh }, ok), context)?.outcome).toBe('pass');
  });
});

describe('stateful-model', () => {
  it('holds each step to the model', () => {
    const step = (expectation: ExchangeFacts['expect']) => ({ role: 'model' as const, expect: expectation, because: 'test' });
    expect(statefulModel.judge(exchange(step('refuse'), badRequest), context)?.outcome).toBe('pass');
    expect(statefulModel.judge(exchange(step('refuse'), ok), context)?.outcome).toBe('fail');
    expect(statefulModel.judge(exchange(step('accept'), ok), context)?.outcome).toBe('pass');
    expect(statefulModel.judge(exchange(step('either'), badRequest), context)?.outcome).toBe('pass');
    const retry = { request: { method: 'POST', url: 'http://h/plants', headers: {}, label: 'retry' }, response: ok };
    expect(statefulModel.judge(exchange({ ...step('accept'), retry }, badRequest), context)?.outcome).toBe('fail');
    expect(statefulModel.judge(exchange(step(undefined), ok), context)).toBeUndefined();
  });
});

describe('all checks', () => {
  it('have distinct ids, a title and a one-line description', () => {
    expect(new Set(CHECKS.map((c) => c.id)).size).toBe(CHECKS.length);
    for (const check of CHECKS) {
      expect(check.title.length).toBeGreaterThan(0);
      expect(check.description).not.toMatch(/\n/);
    }
  });

  it('judge() returns only the checks an exchange concerns', () => {
    const verdicts = judge(exchange({}, ok), context).map((j) => j.check);
    expect(verdicts).toEqual([
      'positive-acceptance',
      'no-server-errors',
      'status-conformance',
      'content-type-conformance',
      'response-schema-conformance',
      'response-reflects-request',
    ]);
  });
});

describe('list-limit-respected', () => {
  const list = (facts: Partial<ExchangeFacts>, items: number): Exchange => ({
    request: { method: 'GET', url: 'http://h/plants?limit=1', headers: {}, label: 'a list' },
    response: answer(
      200,
      Array.from({ length: items }, (_, i) => ({ name: `p${i}` })),
    ),
    facts: { role: 'create', kind: 'valid', target: 'parameter', ...facts },
  });
  const listContext = (): CheckContext => ({ ...context, limitParameter: 'limit' });
  const lifecycle = (holds: number): Partial<ExchangeFacts> => ({ role: 'lifecycle', state: { step: 'list', held: [], deleted: [], holds, limit: 1n } });

  it('a lone list is held to the limit in its URL, whatever the target held before', () => {
    expect(listLimitRespected.judge(list({}, 1), listContext())?.outcome).toBe('pass');
    expect(listLimitRespected.judge(list({}, 5), listContext())?.outcome).toBe('fail');
  });

  it("a lifecycle list is judged once the sequence's own items exceed the limit, so its steps show the fault on a fresh target", () => {
    // One item held, a page of one: five items came from elsewhere, which the sequence's steps cannot make again.
    expect(listLimitRespected.judge(list(lifecycle(1), 5), listContext())).toBeUndefined();
    expect(listLimitRespected.judge(list(lifecycle(2), 5), listContext())?.outcome).toBe('fail');
    expect(listLimitRespected.judge(list(lifecycle(2), 1), listContext())?.outcome).toBe('pass');
  });
});

describe('created-item-listed', () => {
  const ours = { property: 'slug', text: '"ours-1"' };
  /** A lifecycle list of `items` articles, none of them ours. */
  const list = (items: number, page: { limit?: bigint; page?: bigint }): Exchange => ({
    request: { method: 'GET', url: 'http://h/articles', headers: {}, label: 'a list' },
    response: answer(200, { articles: Array.from({ length: items }, (_, i) => ({ slug: `other-${i}` })), articlesCount: items + 5 }),
    facts: { role: 'lifecycle', kind: 'valid', target: 'parameter', state: { step: 'list', held: [ours], deleted: [], holds: 1, ...page } },
  });

  it('judges a list shorter than the page it asked for, and leaves a full one (our item may be on a later page)', () => {
    expect(createdItemListed.judge(list(3, { limit: 20n }), context)?.outcome).toBe('fail');
    expect(createdItemListed.judge(list(20, { limit: 20n }), context)).toBeUndefined();
  });

  it('asked for no limit, a list that fills the declared default page is not complete (RealWorld: limit, default 20)', () => {
    expect(createdItemListed.judge(list(20, { page: 20n }), context)).toBeUndefined();
    expect(createdItemListed.judge(list(19, { page: 20n }), context)?.outcome).toBe('fail');
    // No page at all (no limit parameter): the list is the whole collection.
    expect(createdItemListed.judge(list(20, {}), context)?.outcome).toBe('fail');
  });
});
