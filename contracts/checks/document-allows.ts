/**
 * Whether the document itself allows a drawn body, judged by the one body-check recipe serve
 * validates requests with (compileBodyCheck). The generator picks one oneOf branch and does not
 * prove the value fits no other; where branches overlap (ReadMe's discriminators.yaml: two
 * identical allOf branches), no value is valid by JSON Schema, and a refusal of it is right.
 */
import { compileBodyCheck, type BodyCheck } from '../../src/core/prism/adapter.js';
import { jsonRequestBody, type Operation } from '../../src/core/openapi/operation.js';
import type { JsonValue } from '../generators/json-value.js';

/** One compiled check per operation, on first need (only a refused valid case asks). */
const compiled = new WeakMap<Operation, BodyCheck | null>();

/** false: the document's request schema refuses this body; true where it allows it or there is none to judge by. */
export function documentAllowsBody(operation: Operation, payload: JsonValue | undefined): boolean {
  if (payload === undefined) return true;
  let check = compiled.get(operation);
  if (check === undefined) {
    const body = jsonRequestBody(operation);
    check = (body === undefined ? undefined : compileBodyCheck(body.schema as object, operation, 'request')) ?? null;
    compiled.set(operation, check);
  }
  return check === null || check(payload) === undefined;
}
