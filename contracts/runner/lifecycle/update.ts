/**
 * The update (PATCH) and replace (PUT) steps: a valid change, drawn from the operation's request
 * schema, sent to an item the sequence holds. The model learns what a read must show afterwards
 * (update-applied judges it): the values sent, where the item's schema has them and the change
 * settles them — a replace sets what it sends, a merge sets each property given, a JSON Merge
 * Patch removes what it sets to null and merges an object (which the suite does not predict).
 */
import { withPayload } from '../../generators/request-cases/body-encoding.js';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isSuccess } from '../../../src/core/openapi/operation.js';
import type { Resource } from '../../../src/core/resources/model.js';
import type { ExpectedValue } from '../../checks/index.js';
import { isJsonObject, jsonEntries, withKey, type JsonObject, type JsonValue } from '../../generators/json-value.js';
import { objectShape } from '../../../src/core/schema/properties.js';
import { heldChecks } from '../../../src/core/conformance/held-value.js';
import { keepsUnsent, replaceKind } from '../../../src/core/conformance/replace-kind.js';
import type { RequestCase } from '../case-source.js';
import { endIfBroken, record, SequenceEnded } from '../sequence.js';
import { send } from '../send.js';
import { describeItem, idValue, itemOf, itemPath, pickFrom, stateFacts, withItem, type Command, type Item, type Marking } from './steps.js';

export type Change = 'update' | 'replace';

/** The properties a read shows and a client may set: declared by the item's schema, neither readOnly nor writeOnly. */
export function settableProperties(resource: Resource): ReadonlySet<string> {
  if (resource.itemSchema === undefined) return new Set();
  const shape = objectShape(resource.itemSchema);
  return new Set([...shape.properties.keys()].filter((name) => !shape.readOnly.has(name) && !shape.writeOnly.has(name)));
}

/**
 * Whether a value sent under a property can be shown as sent: where the item declares it otherwise than
 * the change does (Ory Kratos's credentials), only a value that fits the item's declaration (core/conformance/held-value.ts).
 */
export function shownAsSent(resource: Resource, operation: Operation): (property: string, value: JsonValue) => boolean {
  const checks = heldChecks(resource, operation);
  return (property, value) => checks.get(property)?.(value) ?? true;
}

export function changeHeld(resource: Resource, operation: Operation, change: Change, template: RequestCase, pick: number, marking: Marking): Command {
  const settable = settableProperties(resource);
  const shown = shownAsSent(resource, operation);
  // A PUT that updates only what it sends (Box's) is judged as an update by a plain merge: serve's reading too.
  const partial = change === 'replace' && replaceKind(resource, operation) === 'merge';
  const settles: Change = partial ? 'update' : change;
  const merging: Resource['update'] = partial ? 'merge' : resource.update;
  return {
    check: (model) => model.held.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.held, pick);
      if (item?.key === undefined || !isJsonObject(template.payload) || template.body === undefined) return;
      // The change is made to the item inside its envelope, and sent in it.
      const inner = itemOf(resource, template.payload, 'request');
      if (!isJsonObject(inner)) return;
      const changed = changeBody(resource, change, inner, item, marking);
      const body = withItem(resource, template.payload, changed);
      const request: RequestCase = withPayload({ ...template, path: itemPath(resource, operation, template, item.key, item.create.path) }, body);
      const because = `${describeItem(item)} was created at step ${item.step}`;
      const facts = { ...stateFacts(real, model, change, because, keepsUnsent(resource, operation, change) ? { keepsUnsent: true } : {}), payload: body };
      const label = `step ${real.step}: ${change} ${resource.name} ${item.key}`;
      const exchange = await send(real.env, request, facts, label, [...real.sent]);
      const sent = record(real, exchange === undefined ? [] : [exchange], operation);
      endIfBroken(sent);
      if (!isSuccess(sent.response.status ?? 0)) throw new SequenceEnded(`the ${change} was refused (update-applied judges it)`);
      const expected = expectedAfter(settles, merging, item.expected, changed, settable, shown);
      // A replace sets everything anew; an update leaves what it did not send as the create sent it.
      const kept = item.sent.filter(
        (value) => value.property === resource.identifier.property || (settles === 'update' && !Object.hasOwn(changed, value.property)),
      );
      model.held.splice(model.held.indexOf(item), 1, { ...item, expected, sent: kept });
    },
    toString: () => `${change}(#${pick}, ${template.body ?? ''})`,
  };
}

/** The drawn change, made to name the item it goes to (its id, where the body carries one) and to keep the marker a list finds it by. */
function changeBody(resource: Resource, change: Change, payload: JsonObject, item: Item, marking: Marking): JsonObject {
  const property = resource.identifier.property;
  let body = payload;
  if (item.key !== undefined && Object.prototype.hasOwnProperty.call(body, property)) body = withKey(body, property, idValue(resource, item.key));
  const mark = item.mark;
  // A replace without the marker would leave the item unfindable in a list; an update without it keeps it.
  if (marking?.by === 'marker' && mark !== undefined && (change === 'replace' || Object.prototype.hasOwnProperty.call(body, marking.property))) {
    body = withKey(body, marking.property, JSON.parse(mark.text) as JsonValue);
  }
  return body;
}

/** What a read must show after the change, given what it had to show before. */
export function expectedAfter(
  change: Change,
  update: Resource['update'],
  before: readonly ExpectedValue[],
  body: JsonObject,
  settable: ReadonlySet<string>,
  shown: (property: string, value: JsonValue) => boolean = () => true,
): ExpectedValue[] {
  const expected = new Map<string, ExpectedValue>(change === 'replace' ? [] : before.map((value) => [value.property, value]));
  for (const [property, value] of jsonEntries(body)) {
    if (!settable.has(property)) continue;
    // A value the item declares otherwise and cannot hold as sent: the target's to turn into something else.
    if (!shown(property, value)) {
      expected.delete(property);
      continue;
    }
    if (change === 'update' && (value === null || isJsonObject(value))) {
      // Merge Patch: null removes the property, an object merges into the stored one; a plain merge's null is the target's to read.
      if (value === null && update === 'merge-patch') expected.set(property, { property });
      else expected.delete(property);
      continue;
    }
    expected.set(property, { property, value });
  }
  return [...expected.values()];
}
