/**
 * An answer judged once against its operation by the one judge (src/core/conformance/judge.ts),
 * however many checks read the verdict: status-, content-type-, response-schema- and
 * response-headers-conformance each report their part of it.
 */
import { judgeAnswer, type Judgement, type Violation, type ViolationKind } from '../../src/core/conformance/judge.js';
import type { Operation } from '../../src/core/openapi/operation.js';
import type { ReceivedResponse } from '../report.js';
import { answerJson } from './answer-json.js';

const judged = new WeakMap<ReceivedResponse, Map<Operation, Judgement>>();

/** The judgement of `response` as an answer of `operation`; undefined when no answer came (no status). */
export function answerJudgement(response: ReceivedResponse, operation: Operation): Judgement | undefined {
  const status = response.status;
  if (status === undefined) return undefined;
  let byOperation = judged.get(response);
  if (byOperation === undefined) judged.set(response, (byOperation = new Map()));
  let judgement = byOperation.get(operation);
  if (judgement === undefined) {
    judgement = judgeAnswer(operation, { status, headers: response.headers, body: response.body }, () =>
      response.body === '' ? { ok: false, reason: 'the body is empty' } : answerJson(response),
    );
    byOperation.set(operation, judgement);
  }
  return judgement;
}

/** The judgement's violation of one kind, typed by it. */
export function violationOf<K extends ViolationKind>(judgement: Judgement, kind: K): Extract<Violation, { kind: K }> | undefined {
  return judgement.violations.find((violation): violation is Extract<Violation, { kind: K }> => violation.kind === kind);
}
