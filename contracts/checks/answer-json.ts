/**
 * An answer's body read as JSON once, however many checks read it: a list answer of thousands of
 * items was parsed by two checks, each time in full.
 */
import { parseExactJson, type ParsedJson } from '../../src/core/json/exact-json.js';
import type { ReceivedResponse } from '../report.js';

const parsed = new WeakMap<ReceivedResponse, ParsedJson>();

/** The body as the server reads requests (parseExactJson): an int64 beyond 2^53 exact, at most 64 levels deep. */
export function answerJson(response: ReceivedResponse): ParsedJson {
  let result = parsed.get(response);
  if (result === undefined) {
    result = parseExactJson(response.body);
    parsed.set(response, result);
  }
  return result;
}
