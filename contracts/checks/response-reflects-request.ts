/**
 * A created resource says back what was sent: every property of the declared success schema
 * (for the Plant Store: name and tag) equals the value sent, and one that was not sent is absent, unless
 * the server may fill it: readOnly, required by the answer, or kept by a PATCH's merge.
 */
import { isJsonObject, jsonEquals, toJsonText, type JsonValue } from '../generators/json-value.js';
import { answerJson } from './answer-json.js';
import { declaredResponse, isSuccess } from '../../src/core/openapi/operation.js';
import { objectShape } from '../../src/core/schema/properties.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

export const responseReflectsRequest: Check<'response-reflects-request'> = {
  id: 'response-reflects-request',
  title: 'Answers reflect requests',
  description:
    'A success answer carries back, as sent, each property its schema declares that the request sent (and adds none the request left out that the server may not fill).',
  judge({ request, response, facts }, { operation, assignedIdentifier }) {
    if (facts.kind !== 'valid' || !isJsonObject(facts.payload)) return undefined;
    if (response.status === undefined || !isSuccess(response.status)) return undefined;
    // An undeclared success (a 201 where 200 is declared) is still held to the declared success body:
    // status-conformance reports the status, this check what the body says.
    const success = declaredResponse(operation, response.status) ?? operation.responses.find((declared) => isSuccess(Number(declared.code)));
    // What the request cannot carry (a server-assigned id the answer requires) is the server's to add.
    const requestSchema = operation.request?.body?.contents?.find((c) => c.schema !== undefined)?.schema;
    const sendable = new Set(objectShape(requestSchema, { direction: 'request' }).properties.keys());
    // A readOnly property is the server's (OpenAPI: it SHOULD NOT be sent, and one sent may be ignored).
    const serversOwn = new Set([...readOnlyProperties(requestSchema), ...readOnlyProperties(success?.contents?.[0]?.schema)]);
    const properties = echoedProperties(success?.contents?.[0]?.schema).filter(
      (property) => (requestSchema === undefined || sendable.has(property)) && !serversOwn.has(property),
    );
    if (properties.length === 0) return undefined;
    const read = answerJson(response);
    if (!read.ok) return undefined; // not JSON: response-schema-conformance reports it
    const answer = read.value;
    if (!isJsonObject(answer)) return undefined;
    const sent = facts.payload;
    // Not "added" where the server may fill a property the request did not send: a PATCH merges
    // into the stored item (which keeps what the patch left out), a readOnly property is the
    // server's (an assigned id), and one the answer requires must be filled somehow.
    const serverMayFill =
      operation.method.toLowerCase() === 'patch'
        ? new Set(properties)
        : new Set([
            ...readOnlyProperties(requestSchema),
            ...readOnlyProperties(success?.contents?.[0]?.schema),
            ...requiredProperties(success?.contents?.[0]?.schema),
            // An identifier the request left out is the server's to assign.
            ...(assignedIdentifier === undefined ? [] : [assignedIdentifier]),
          ]);
    for (const property of properties) {
      const wasSent = Object.prototype.hasOwnProperty.call(sent, property);
      const isBack = Object.prototype.hasOwnProperty.call(answer, property);
      const sentValue = sent[property];
      const backValue = answer[property];
      if (wasSent && sentValue !== undefined && (!isBack || backValue === undefined || !jsonEquals(sentValue, backValue))) {
        return fail({
          key: byAnswer(`${property} not carried back`),
          expected: `${property}: ${toJsonText(sentValue)} (as sent)`,
          expectation: { kind: 'echo', property },
          actual: isBack && backValue !== undefined ? `${property}: ${toJsonText(backValue)}` : `no ${property} in ${response.body}`,
          message: `the created resource does not carry back the ${property} that was sent (${request.label})`,
        });
      }
      if (!wasSent && isBack && backValue !== undefined && !serverMayFill.has(property)) {
        return fail({
          key: byAnswer(`${property} added`),
          expected: `no ${property} (none was sent)`,
          expectation: { kind: 'echo', property },
          actual: `${property}: ${toJsonText(backValue)}`,
          message: `the created resource has a ${property} that was not sent (${request.label})`,
        });
      }
    }
    return PASS;
  },
};

/** The success schema's properties an answer holds (the one property walker: allOf merged, writeOnly never answered). */
function echoedProperties(schema: unknown): string[] {
  return [...objectShape(schema, { direction: 'response' }).properties.keys()];
}

/** Properties a schema marks readOnly (through allOf). */
function readOnlyProperties(schema: unknown): string[] {
  return [...objectShape(schema).readOnly];
}

/** Properties an answer of this schema requires (through allOf; a writeOnly one never is). */
function requiredProperties(schema: unknown): string[] {
  return [...objectShape(schema, { direction: 'response' }).required];
}
