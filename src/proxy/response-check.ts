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

/** `headers` by lower-case name, as the real implementation sent them. */
export type ResponseCheck = (status: number, headers: Readonly<Record<string, string>>, body: Buffer) => ContractViolation[];

/** The journal's name for each kind of violation (what `check` says in a journal entry). */
const CHECK_NAMES: Record<Violation['kind'], string> = { status: 'status', 'media-type': 'media-type', 'not-json': 'body', schema: 'schema', header: 'header' };

export function compileResponseCheck(operation: Operation): ResponseCheck {
  prepareJudge(operation);
  return (status, headers, body) =>
    judgeAnswer(operation, { status, headers, body }).violations.flatMap((violation): ContractViolation[] => {
      const check = CHECK_NAMES[violation.kind];
      // One line per issue, in prism's words, as the journal has always shown them.
      const messages = violation.kind === 'schema' || violation.kind === 'header' ? violation.issues : [violation.message];
      return messages.map((message) => ({ side: 'response', check, message }));
    });
}
