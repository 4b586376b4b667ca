/**
 * A valid create must succeed. A refusal is re-tested by the runner with the same payload and a
 * never-used id (facts.retry), so that an id left over from an earlier run against a stateful
 * target is not taken for a fault:
 *   - retry refused too        → the payload was refused: failure;
 *   - retry accepted, id fresh → the target refused an id it cannot hold: failure;
 *   - retry accepted, id sent as generated (an edge value such as 0 or 2^53+1) → it may be
 *     stored already, so the refusal is allowed;
 *   - retry failed (5xx, no answer), id sent as generated → not judged (no-server-errors reports it);
 *   - no retry (no never-used id of the identifier's type exists), id sent as generated → allowed
 *     only when refused the way this target refuses a taken id (learnt in the run).
 * 5xx and transport errors belong to no-server-errors; which 2xx belongs to status-conformance.
 */
import { isSuccess, type Operation } from '../../src/core/openapi/operation.js';
import { securityOf } from '../../src/core/openapi/security.js';
import { flagFor } from '../generators/request-cases/credentials.js';
import { describeResponse, declaredCodesIn, isDeclared } from './declared.js';
import { documentAllowsBody } from './document-allows.js';
import { isJsonObject, parseJsonExact } from '../generators/json-value.js';
import { describeShape, sameShape, shapeOf } from './refusal-shape.js';
import { byRequest, fail, PASS, type Check } from './types.js';

export const positiveAcceptance: Check<'positive-acceptance'> = {
  id: 'positive-acceptance',
  title: 'Valid requests are accepted',
  description: 'A valid payload with valid credentials gets a success (2xx) status.',
  judge({ request, response, facts }, { operation, duplicateRefusal }) {
    if (facts.role !== 'create' || facts.kind !== 'valid') return undefined;
    const status = response.status;
    if (status === undefined || status >= 500) return undefined;
    if (isSuccess(status)) return PASS;
    // A drawn id names an item the target need not hold: "not found" is a right answer to it, and
    // where the document declares no 404/410, its declared failure status is the only way to say so.
    // State the schema cannot show, learnt in the run (runner/issued-credentials.ts): refused by a status the document declares, rightly.
    if (facts.refusalExpected !== undefined && isDeclared(operation, status)) return PASS;
    if (facts.itemMayBeAbsent === true && (status === 404 || status === 410 || (!declaresNotFound(operation) && isDeclared(operation, status)))) return PASS;
    // A drawn body the document's own schema refuses (overlapping oneOf branches) was never valid: not judged.
    if (facts.target === 'body' && !documentAllowsBody(operation, facts.payload)) return undefined;
    const expected = `${declaredCodesIn(operation, 2)} (accepted)`;
    const expectation = { kind: 'status-class', classes: [2] } as const;
    // One kind of problem whichever way the refusal shows (with or without a retry).
    const key = byRequest(expected);
    const retry = facts.retry;
    const retryStatus = retry?.response.status;
    // A retry that failed (5xx, no answer) cannot clear an id sent as generated: no-server-errors
    // reports the failure, and the refusal stays unjudged. A refused fresh id is a fault either way.
    const retryFailed = retry !== undefined && (retryStatus === undefined || retryStatus >= 500);
    if (retryFailed && facts.id?.freshness !== 'fresh') return undefined;
    // No retry (no never-used id of the identifier's type can be drawn): a literal id refused the way
    // this target refuses a taken one may be held (by this run or an earlier one); any other refusal fails.
    const learnt = duplicateRefusal;
    if (retry === undefined && facts.id?.freshness === 'literal' && learnt !== undefined && sameShape(shapeOf(status, response.body, facts.id.value), learnt)) {
      return PASS;
    }
    if (retry === undefined || retryStatus === undefined || retryStatus >= 500) {
      return fail({
        key,
        expected,
        expectation,
        actual: describeResponse(response),
        message: `a valid request was refused (${request.label})${credentialsHint(status, response.body, operation)}`,
      });
    }
    if (!isSuccess(retryStatus)) {
      return fail({
        key,
        expected,
        expectation,
        actual: describeResponse(retry.response),
        message: `a valid request was refused, and again with a never-used id (${request.label})${credentialsHint(retry.response.status, retry.response.body, operation)}`,
        evidence: retry,
      });
    }
    // A literal id (0, an int64 extreme) may be held from an earlier run, but then it is refused the
    // way this target refuses a taken id (learnt in this run); any other refusal is about the id itself.
    if (facts.id?.freshness === 'literal' && learnt !== undefined) {
      const shape = shapeOf(status, response.body, facts.id.value);
      if (!sameShape(shape, learnt)) {
        return fail({
          key: byRequest(`${expected}, an edge id`),
          expected,
          expectation,
          actual: describeResponse(response),
          message: `a valid request with id ${shown(facts.id.value)} was refused, not the way this target refuses a taken id (${describeShape(learnt)}), and the same item with id ${idOf(retry.request.body, facts.id.property)} was accepted (${request.label})`,
        });
      }
    }
    if (facts.id?.freshness === 'fresh') {
      return fail({
        key,
        expected,
        expectation,
        actual: describeResponse(response),
        message: `a valid request was refused for its id ${shown(facts.id.value)}, which no earlier request used (the same item with id ${idOf(retry.request.body, facts.id.property)} was accepted)`,
      });
    }
    return PASS;
  },
};

/** When the refusal is about credentials, the likely cause is the run's own token. */
function credentialsHint(status: number | undefined, body: string, operation: Operation): string {
  const code = /"error"\s*:\s*(\d+)/.exec(body)?.[1];
  const aboutAuth = status === 401 || status === 403 || code === '401' || code === '403' || /\b(token|credential|unauthori[sz]ed)/i.test(body);
  return aboutAuth ? `; the target seems to refuse the credentials: pass ${flagsFor(operation)}` : '';
}

/** The flags that give credentials for the operation's schemes: never --token for a scheme that takes no bearer token. */
function flagsFor(operation: Operation): string {
  const flags = [
    ...new Set(
      securityOf(operation)
        .alternatives.flat()
        .filter((scheme) => scheme.type !== 'mutualTLS')
        .map(flagFor),
    ),
  ];
  return flags.length === 0 ? 'credentials it accepts with --token, --auth or --header' : `credentials it accepts: ${flags.join(', or ')}`;
}

/** The id a request's body carries in `property` ("id" unless named), as a finding shows it. */
function idOf(body: string | undefined, property = 'id'): string {
  try {
    const value = parseJsonExact(body ?? '');
    const id = isJsonObject(value) ? value[property] : undefined;
    return typeof id === 'bigint' || typeof id === 'number' || typeof id === 'string' ? shown(id) : '?';
  } catch {
    return '?';
  }
}

/** Digits for an integer id, JSON-quoted for a string one. */
function shown(id: bigint | number | string): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

/** Whether the operation has its own status for a missing item. */
function declaresNotFound(operation: Operation): boolean {
  return operation.responses.some((response) => response.code === '404' || response.code === '410');
}
