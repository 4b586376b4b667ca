/**
 * A success answer says back what was sent: every property sent that the answer's schema shows
 * comes back equal, compared recursively (an envelope such as {"article": {...}} in and out is
 * compared inside; a nested object likewise). The server may add what was not sent (a slug, a
 * createdAt, an author), and what the answer's schema does not show (a password) is not expected
 * back, nor a password it shows, nor a refresh token, which is traded for a new one (src/core/resources/sign-in.ts names what is one). readOnly properties are the server's, writeOnly ones are not said back. At the top level, a
 * property the request could carry but did not is absent from the answer, unless the server may
 * fill it: readOnly, required by the answer, an assigned identifier, kept by a PATCH's merge (or a PUT's that updates only what it sends), the
 * default the request declares for it, or a value the request's path gave (the item it names).
 * A JSON Merge Patch (RFC 7396) null asks for the property's removal: it comes back absent (or null).
 */
import { isJsonObject, jsonEquals, toJsonText, type JsonObject, type JsonValue } from '../generators/json-value.js';
import { answerJson } from './answer-json.js';
import { contentTypeOf } from '../../src/core/http/headers.js';
import { mediaTypeOf } from '../../src/core/http/media-type.js';
import { declaredResponse, isSuccess, operationName, requestPath, requestBodySchema } from '../../src/core/openapi/operation.js';
import { jsonSchemaOf } from '../../src/core/resources/responses.js';
import { arrayItems, objectShape, type ObjectShape } from '../../src/core/schema/properties.js';
import { holdsOf } from '../../src/core/conformance/held-value.js';
import { heldNames } from '../../src/core/resources/held-names.js';
import { isPasswordProperty, isRefreshTokenName } from '../../src/core/resources/sign-in.js';
import type { Schema } from '../../src/core/schema/normalise.js';
import { byAnswer, fail, PASS, type Check } from './types.js';

/** How deep an answer is compared: enough for any envelope, bounded against a hostile one. */
const MAX_DEPTH = 16;

/** Each schema's shape, read once: every accepted answer asks for the same few (about 2 % of a default run's main phase went to reading them again). */
const shapes = new WeakMap<object, ObjectShape>();

function shapeOf(schema: unknown): ObjectShape {
  if (typeof schema !== 'object' || schema === null) return objectShape(schema);
  let shape = shapes.get(schema);
  if (shape === undefined) shapes.set(schema, (shape = objectShape(schema)));
  return shape;
}

export const responseReflectsRequest: Check<'response-reflects-request'> = {
  id: 'response-reflects-request',
  title: 'Answers reflect requests',
  description: 'A success answer carries back every property sent that its schema shows, equal (server-added ones allowed; envelopes compared inside).',
  judge({ request, response, facts }, { operation, assignedIdentifier, keepsUnsent }) {
    if (facts.kind !== 'valid' || !isJsonObject(facts.payload)) return undefined;
    if (response.status === undefined || !isSuccess(response.status)) return undefined;
    // An undeclared success (a 201 where 200 is declared) is still held to the declared success body:
    // status-conformance reports the status, this check what the body says.
    const success = declaredResponse(operation, response.status) ?? operation.responses.find((declared) => isSuccess(Number(declared.code)));
    // The JSON bodies (what verify sends and reads), not the first declared: an XML one may name its properties otherwise.
    const answerSchema = jsonSchemaOf(success);
    const requestSchema = requestBodySchema(operation, contentTypeOf(request.headers));
    if (shapeOf(answerSchema).properties.size === 0) return undefined;
    const read = answerJson(response);
    if (!read.ok) return undefined; // not JSON: response-schema-conformance reports it
    const answer = read.value;
    if (!isJsonObject(answer)) return undefined;
    const sent = facts.payload;
    const name = operationName(operation);
    const removes = mediaTypeOf(contentTypeOf(request.headers)) === 'application/merge-patch+json';
    const missing = firstUnreflected(sent, answer, requestSchema, answerSchema, [], 0, removes, operation);
    if (missing !== undefined) {
      const { steps, sentValue, backValue } = missing;
      const path = steps.join('.');
      return fail({
        key: byAnswer(`${name}: ${path} not carried back`),
        expected: `${path}: ${toJsonText(sentValue)} (as sent)`,
        expectation: { kind: 'echo', property: path, ...(steps.length > 1 ? { path: steps } : {}) },
        actual: backValue !== undefined ? `${path}: ${toJsonText(backValue)}` : `no ${path} in ${response.body}`,
        message: `the answer does not carry back the ${path} that was sent (${request.label})`,
      });
    }
    const added = firstAdded(
      sent,
      answer,
      keepsUnsent === true || facts.state?.keepsUnsent === true || operation.method.toLowerCase() === 'patch',
      requestSchema,
      answerSchema,
      assignedIdentifier,
      () => pathValues(operation.path, request.url),
    );
    if (added !== undefined) {
      return fail({
        key: byAnswer(`${name}: ${added} added`),
        expected: `no ${added} (none was sent)`,
        expectation: { kind: 'echo', property: added },
        actual: `${added}: ${toJsonText(answer[added] as JsonValue)}`,
        message: `the answer has a ${added} that was not sent (${request.label})`,
      });
    }
    return PASS;
  },
};

interface Unreflected {
  /** The property's names from the top ("article", "title"). */
  readonly steps: readonly string[];
  readonly sentValue: JsonValue;
  readonly backValue: JsonValue | undefined;
}

/** The first property sent, shown by the answer's schema and neither readOnly nor writeOnly, that does not come back equal. */
function firstUnreflected(
  sent: JsonObject,
  back: JsonObject,
  requestSchema: unknown,
  answerSchema: unknown,
  at: readonly string[],
  depth: number,
  /** A merge patch: a null sent removes the property. */
  removes: boolean,
  operation: object,
): Unreflected | undefined {
  const requested = shapeOf(requestSchema).properties;
  const shown = shapeOf(answerSchema).properties;
  // The item's own names for the request's, at its top (Twilio's FriendlyName, answered as friendly_name): serve's reading too.
  const renamed = depth === 0 ? renamesOf(requestSchema, answerSchema) : undefined;
  for (const [sentName, sentValue] of Object.entries(sent)) {
    const property = renamed?.get(sentName) ?? sentName;
    const answerProperty = shown.get(property);
    // Not shown by the answer (a password), or the server's own, or never said back.
    if (sentValue === undefined || answerProperty === undefined || isFlagged(answerProperty, requested.get(sentName))) continue;
    // A password is never said back, even where the answer's schema lists one (RealWorld's User): sign-in's one reading of what is one.
    if (isPasswordProperty(sentName, requested.get(sentName) as Readonly<Record<string, unknown>> | undefined)) continue;
    // A refresh token is traded, not said back: the answer carries a new one (rotated, as serve and OAuth servers do).
    if (isRefreshTokenName(sentName)) continue;
    const steps = [...at, property];
    const backValue = Object.prototype.hasOwnProperty.call(back, property) ? back[property] : undefined;
    if (removes && sentValue === null) {
      if (backValue === undefined || backValue === null) continue;
      return { steps, sentValue, backValue };
    }
    // An array of other things under the same name (Ory Kratos's batch patch: patches in, results out) is no echo.
    if (Array.isArray(sentValue) && !itemsShown(requested.get(sentName), answerProperty)) continue;
    if (depth < MAX_DEPTH && isJsonObject(sentValue) && isJsonObject(backValue)) {
      const inner = firstUnreflected(sentValue, backValue, requested.get(sentName), answerProperty, steps, depth + 1, removes, operation);
      if (inner !== undefined) return inner;
      continue;
    }
    if (backValue !== undefined && jsonEquals(sentValue, backValue)) continue;
    // A value the answer's declaration cannot hold is turned into something else by the server (absent, or another value).
    if (!answerCanHold(answerProperty, requested.get(sentName), sentValue, operation)) continue;
    return { steps, sentValue, backValue };
  }
  return undefined;
}

const renames = new WeakMap<object, WeakMap<object, ReadonlyMap<string, string>>>();

/** The answer's names for the request's properties named otherwise in case and separators only (core/resources/held-names.ts), read once per pair. */
function renamesOf(requestSchema: unknown, answerSchema: unknown): ReadonlyMap<string, string> | undefined {
  if (typeof requestSchema !== 'object' || requestSchema === null || typeof answerSchema !== 'object' || answerSchema === null) return undefined;
  let byAnswer = renames.get(requestSchema);
  if (byAnswer === undefined) renames.set(requestSchema, (byAnswer = new WeakMap()));
  let found = byAnswer.get(answerSchema);
  if (found === undefined) byAnswer.set(answerSchema, (found = heldNames(shapeOf(requestSchema).properties.keys(), shapeOf(answerSchema).properties.keys())));
  return found.size === 0 ? undefined : found;
}

/**
 * Whether the answer's declaration of a property can hold the value sent: where it declares the
 * property otherwise than the request (Ory Kratos's credentials) and the value does not fit, an
 * answer without it, or with another value, is the server's way (core/conformance/held-value.ts,
 * the rule serve stores and echoes by): real Kratos answers its credentials as a map.
 */
function answerCanHold(answerProperty: Schema, requestProperty: Schema | undefined, sentValue: JsonValue, operation: object): boolean {
  const holds = holdsOf(answerProperty, requestProperty, operation);
  return holds === undefined || holds(sentValue);
}

/** Whether an array's answered items show every property its sent items may have: else it cannot come back as sent. */
function itemsShown(requestSchema: unknown, answerSchema: unknown): boolean {
  const sent = shapeOf(arrayItems(requestSchema)).properties;
  const shown = shapeOf(arrayItems(answerSchema)).properties;
  return [...sent.keys()].every((name) => shown.has(name));
}

/** readOnly (the server's: it may ignore one sent) or writeOnly (never said back), on either side. */
function isFlagged(...schemas: Array<Schema | undefined>): boolean {
  return schemas.some((schema) => schema !== undefined && (schema.readOnly === true || schema.writeOnly === true));
}

/**
 * A top-level property the request could carry but did not, that the answer has though the server
 * had no reason to fill it: not readOnly, not required by the answer, not an assigned identifier,
 * not kept from the stored item by a PATCH, not the request's declared default.
 */
function firstAdded(
  sent: JsonObject,
  answer: JsonObject,
  /** A PATCH, or a PUT that updates only what it sends: what it did not send stays as stored. */
  keeps: boolean,
  requestSchema: unknown,
  answerSchema: unknown,
  assignedIdentifier: string | undefined,
  /** The values the request's path gave its parameters: read only when a property would be reported. */
  inPath: () => ReadonlySet<string>,
): string | undefined {
  if (keeps || requestSchema === undefined) return undefined;
  const requested = shapeOf(requestSchema);
  const shown = shapeOf(answerSchema);
  for (const [property, schema] of shown.properties) {
    const sendable = requested.properties.get(property);
    if (sendable === undefined || isFlagged(schema, sendable) || shown.required.has(property) || property === assignedIdentifier) continue;
    if (Object.prototype.hasOwnProperty.call(sent, property) || answer[property] === undefined) continue;
    // The default the request declares is what the server used for one not sent (Box's query limit).
    if (sendable.default !== undefined && jsonEquals(sendable.default as JsonValue, answer[property] as JsonValue)) continue;
    // Sent in the path: the item the request names (DigitalOcean's test case update answers the path's uuid, which its body may leave out).
    const value = answer[property];
    if ((typeof value === 'string' || typeof value === 'number') && inPath().has(String(value))) continue;
    return property;
  }
  return undefined;
}

/** Each path parameter's value as the request's URL gives it (decoded), by the operation's path template. */
function pathValues(template: string, url: string): ReadonlySet<string> {
  const values = new Set<string>();
  let given: string[];
  try {
    given = new URL(url).pathname.split('/');
  } catch {
    return values;
  }
  const wanted = requestPath(template).split('?')[0]?.split('/') ?? [];
  // Aligned from the end: the target's base path (http://host/api) comes before the template's segments.
  const offset = given.length - wanted.length;
  for (const [index, segment] of wanted.entries()) {
    const actual = given[index + offset];
    if (actual === undefined || !/^\{[^}]+\}$/.test(segment)) continue;
    try {
      values.add(decodeURIComponent(actual));
    } catch {
      values.add(actual);
    }
  }
  return values;
}
