/**
 * A mocked success answer to a request that sent a JSON object (a create or replace the stand-in
 * keeps no state for: an operation no resource was inferred for) says back what was sent, as the
 * server it stands in for would: each property that the answer and the request body declare with
 * the same schema takes the value sent, and one not sent is left out unless the answer requires
 * it or marks it readOnly (the server's to fill). Anything else stays as prism mocked it.
 */
import type { IHttpOperation } from '@stoplight/types';
import type { Schema } from '../core/schema/normalise.js';
import { objectShape } from '../core/schema/properties.js';
import { sameSchema } from '../core/schema/same-schema.js';

interface EchoPlan {
  /** Properties the answer takes from what was sent. */
  readonly echoed: readonly string[];
  /** Of those, the ones left out of the answer when not sent. */
  readonly droppedUnlessSent: ReadonlySet<string>;
}

const plans = new WeakMap<IHttpOperation, Map<number, EchoPlan | undefined>>();

/** The answer with what was sent said back; the same answer when there is nothing to say back. */
export function echoSent(operation: IHttpOperation, status: number, sent: unknown, answer: unknown): unknown {
  if (status < 200 || status >= 300 || !isObject(sent) || !isObject(answer)) return answer;
  const plan = planFor(operation, status);
  if (plan === undefined) return answer;
  const result: Record<string, unknown> = { ...answer };
  for (const property of plan.echoed) {
    if (Object.hasOwn(sent, property)) result[property] = sent[property];
    else if (plan.droppedUnlessSent.has(property)) delete result[property];
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
  const requestSchema = operation.request?.body?.contents?.find((content) => content.schema !== undefined)?.schema as Schema | undefined;
  const response =
    operation.responses.find((candidate) => candidate.code === String(status)) ??
    operation.responses.find((candidate) => candidate.code.toUpperCase() === `${String(status)[0]}XX`);
  const answerSchema = response?.contents?.find((content) => content.schema !== undefined)?.schema as Schema | undefined;
  if (requestSchema === undefined || answerSchema === undefined) return undefined;
  const request = objectShape(requestSchema);
  const answer = objectShape(answerSchema);
  const echoed: string[] = [];
  const droppedUnlessSent = new Set<string>();
  for (const [name, schema] of answer.properties) {
    const sentSchema = request.properties.get(name);
    if (sentSchema === undefined || isReadOnly(schema) || isReadOnly(sentSchema) || !sameSchema(schema, sentSchema)) continue;
    echoed.push(name);
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
