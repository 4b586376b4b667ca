/**
 * An answer's body read as JSON once (readAnswerJson), however many checks read it: a list answer
 * of thousands of items was parsed by several checks, each time in full.
 */
import { readAnswerJson, type ParsedJson } from '../../src/core/json/exact-json.js';
import type { ReceivedResponse } from '../report.js';

const parsed = new WeakMap<ReceivedResponse, ParsedJson>();

/** The body as answers are read (readAnswerJson): an integer beyond 2^53 exact, at most MAX_JSON_DEPTH levels deep. */
export function answerJson(response: ReceivedResponse): ParsedJson {
  let result = parsed.get(response);
  if (result === undefined) {
    result = readAnswerJson(response.body);
    parsed.set(response, result);
  }
  return result;
}
