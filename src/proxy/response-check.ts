/**
 * Judges a real implementation's answer against the document with the one judge `verify`'s checks
 * use (src/core/conformance/judge.ts, as Prism runs one validateOutput on mocked and forwarded
 * answers): the status declared, the media type declared, the JSON body read exactly and matching
 * its schema in the answer's direction (allOf merged, writeOnly stripped), the declared headers.
 * Each violation becomes one journal line.
 */
import { judgeAnswer, prepareJudge, type Violation } from '../core/conformance/judge.js';
import type { Operation } from '../core/openapi/operation.js';
import type { ContractViolation } from '../journal/journal.js';

/**
 * `headers` by lower-case name, as the real implementation sent them. `bodyJudged` false: the body
 * was too large to judge (--proxy-body-limit), so only the status and headers are.
 */
export type ResponseCheck = (status: number, headers: Readonly<Record<string, string>>, body: Buffer, bodyJudged?: boolean) => ContractViolation[];

/** What can be judged of an answer whose body was not read. */
const HEAD_KINDS: ReadonlySet<Violation['kind']> = new Set(['status', 'header']);

/** The journal's name for each kind of violation (what `check` says in a journal entry). */
const CHECK_NAMES: Record<Violation['kind'], string> = { status: 'status', 'media-type': 'media-type', 'not-json': 'body', schema: 'schema', header: 'header' };

export function compileResponseCheck(operation: Operation): ResponseCheck {
  prepareJudge(operation);
  return (status, headers, body, bodyJudged = true) =>
    judgeAnswer(operation, { status, headers, body }).violations.flatMap((violation): ContractViolation[] => {
      if (!bodyJudged && !HEAD_KINDS.has(violation.kind)) return [];
      const check = CHECK_NAMES[violation.kind];
      // One line per issue, in prism's words, as the journal has always shown them.
      const messages = violation.kind === 'schema' || violation.kind === 'header' ? violation.issues : [violation.message];
      return messages.map((message) => ({ side: 'response', check, message }));
    });
}
