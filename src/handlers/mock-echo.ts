/**
 * A mocked success answer to a request that sent a JSON object (a create or replace the stand-in
 * keeps no state for: an operation no resource was inferred for) says back what was sent, as the
 * server it stands in for would: each property the answer declares that the request body declares
 * too (by the same name, or named otherwise in case and separators only: Twilio's `FriendlyName`
 * answered as `friendly_name`, core/resources/held-names.ts) takes the value sent where the
 * answer's declaration holds it (core/conformance/held-value.ts, the rule verify expects echoes
 * by), and one not sent is left out unless the answer requires it or marks it readOnly (the
 * server's to fill). A sent object the answer's declaration does not hold whole (Box's `parent`:
 * `{id}` sent, a folder's `{id, type}` required back) is said back inside it, property by property,
 * as verify compares. Anything else stays as prism mocked it.
 */
import type { IHttpOperation } from '@stoplight/types';
import { holdsOf, type Holds } from '../core/conformance/held-value.js';
import type { JsonValue } from '../core/json/exact-json.js';
import { heldNames } from '../core/resources/held-names.js';
import { jsonSchemaOf } from '../core/resources/responses.js';
import { requestBodySchema } from '../core/openapi/operation.js';
import type { Schema } from '../core/schema/normalise.js';
import { objectShape } from '../core/schema/properties.js';

interface Echo {
  /** The answer's name for it, and the request's. */
  readonly answerName: string;
  readonly sentName: string;
  /** Where the two declare it otherwise: whether the answer's declaration holds the value sent. */
  readonly holds: Holds | undefined;
  /** Where it does not hold a sent object as a whole: the plan inside it (Box's `parent`: `{id}` sent, `{id, type}` required back). */
  readonly inner: () => EchoPlan | undefined;
}

interface EchoPlan {
  /** Properties the answer takes from what was sent. */
  readonly echoed: readonly Echo[];
  /** Of those (by the answer's name), the ones left out of the answer when not sent (at the top only). */
  readonly droppedUnlessSent: ReadonlySet<string>;
}

/** How deep a sent object is said back inside: verify compares as deep (response-reflects-request). */
const MAX_DEPTH = 16;

const plans = new WeakMap<IHttpOperation, Map<number, EchoPlan | undefined>>();

/** The answer with what was sent said back; the same answer when there is nothing to say back. */
export function echoSent(operation: IHttpOperation, status: number, sent: unknown, answer: unknown): unknown {
  if (status < 200 || status >= 300 || !isObject(sent) || !isObject(answer)) return answer;
  const plan = planFor(operation, status);
  return plan === undefined ? answer : echoed(plan, sent, answer, 0);
}

function echoed(plan: EchoPlan, sent: Record<string, unknown>, answer: Record<string, unknown>, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = { ...answer };
  for (const { answerName, sentName, holds, inner } of plan.echoed) {
    if (Object.hasOwn(sent, sentName)) {
      const value = sent[sentName];
      if (holds === undefined || holds(value as JsonValue)) result[answerName] = value;
      else if (depth < MAX_DEPTH && isObject(value) && isObject(result[answerName])) {
        // Said back inside, property by property, where the answer's own value holds what it must.
        const innerPlan = inner();
        if (innerPlan !== undefined) result[answerName] = echoed(innerPlan, value, result[answerName], depth + 1);
      }
    } else if (depth === 0 && plan.droppedUnlessSent.has(answerName)) delete result[answerName];
  }
  return result;
}

function planFor(operation: IHttpOperation, status: number): EchoPlan | undefined {
  let byStatus = plans.get(operation);
  if (byStatus === undefined) plans.set(operation, (byStatus = new Map()));
  if (!byStatus.has(status)) byStatus.set(status, makePlan(operation, status));
  return byStatus.get(status);
}

function makePlan(operation: IHttpOperation, status: number): EchoPlan | undefined {
  // The JSON bodies (what the echo reads and writes), not the first declared: an XML one may name its properties otherwise.
  const requestSchema = requestBodySchema(operation) as Schema | undefined;
  const response =
    operation.responses.find((candidate) => candidate.code === String(status)) ??
    operation.responses.find((candidate) => candidate.code.toUpperCase() === `${String(status)[0]}XX`);
  const answerSchema = jsonSchemaOf(response) as Schema | undefined;
  if (requestSchema === undefined || answerSchema === undefined) return undefined;
  return planOf(requestSchema, answerSchema, operation, true);
}

/** What of an object sent under `requestSchema` an answer under `answerSchema` says back; the names may differ in case and separators at the top only, as verify reads them. */
function planOf(requestSchema: unknown, answerSchema: unknown, operation: IHttpOperation, top: boolean): EchoPlan | undefined {
  const request = objectShape(requestSchema);
  const answer = objectShape(answerSchema);
  const sentNames = top
    ? new Map([...heldNames(request.properties.keys(), answer.properties.keys())].map(([sentName, answerName]) => [answerName, sentName]))
    : undefined;
  const echoed: Echo[] = [];
  const droppedUnlessSent = new Set<string>();
  for (const [name, schema] of answer.properties) {
    const sentName = request.properties.has(name) ? name : sentNames?.get(name);
    const sentSchema = sentName === undefined ? undefined : request.properties.get(sentName);
    if (sentName === undefined || sentSchema === undefined || isReadOnly(schema) || isReadOnly(sentSchema)) continue;
    let inner: EchoPlan | undefined | null = null;
    echoed.push({
      answerName: name,
      sentName,
      holds: holdsOf(schema, sentSchema, operation),
      inner: () => (inner === null ? (inner = planOf(sentSchema, schema, operation, false)) : inner),
    });
    if (!answer.required.has(name)) droppedUnlessSent.add(name);
  }
  return echoed.length === 0 ? undefined : { echoed, droppedUnlessSent };
}

function isReadOnly(schema: Schema): boolean {
  return (schema as { readonly readOnly?: unknown }).readOnly === true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
