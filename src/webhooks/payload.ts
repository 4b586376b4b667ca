/**
 * A webhook of the served document as the stand-in sends it: its payload made from a stored
 * item, shaped by the webhook's declared body schema and checked against it exactly as a request
 * body is (prism's Ajv, true int64 bounds), so a delivery is valid against the document or is not sent.
 */
import type { JsonValue } from '../core/json/exact-json.js';
import { jsonRequestBody, type BodySchema, type Operation, type Webhook } from '../core/openapi/operation.js';
import { compileBodyCheck } from '../core/prism/adapter.js';
import { objectShape } from '../core/schema/properties.js';

export interface WebhookPayload {
  /** The webhook's name in the document (the key under `webhooks:`). */
  readonly name: string;
  /** Lower case, as the document declares it ('post'). */
  readonly method: string;
  readonly mediaType: string;
  /** The item's properties that the payload schema declares (all of them when it declares none). */
  shape(fields: Readonly<Record<string, JsonValue>>): JsonValue;
  /** Why the payload breaks the document's schema; undefined when it is valid. */
  check(payload: JsonValue): string | undefined;
}

/** The webhook's payload rules; undefined when it declares no JSON body (nothing the stand-in could send). */
export function compileWebhookPayload(name: string, operation: Webhook | Operation): WebhookPayload | undefined {
  const body = jsonRequestBody(operation);
  if (body === undefined) return undefined;
  // A payload is a request the stand-in sends: judged by the one recipe in the request direction.
  const schemaCheck = compileBodyCheck(body.schema, operation, 'request', 'payload');
  const declared = declaredProperties(body.schema);
  return {
    name,
    method: operation.method.toLowerCase(),
    mediaType: body.mediaType,
    shape: (fields) => (declared === undefined ? { ...fields } : Object.fromEntries(Object.entries(fields).filter(([key]) => declared.has(key)))),
    check(payload) {
      const diagnostics = schemaCheck?.(payload);
      return diagnostics === undefined ? undefined : diagnostics.map((diagnostic) => diagnostic.message).join('; ');
    },
  };
}

/** The property names an object schema declares (core/schema's walker, allOf merged); undefined when it declares none (keep everything). */
function declaredProperties(schema: BodySchema): ReadonlySet<string> | undefined {
  const names = new Set(objectShape(schema).properties.keys());
  return names.size === 0 ? undefined : names;
}
