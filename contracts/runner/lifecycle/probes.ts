/**
 * Steps that must leave the stored state as it was, judged by the reads and lists after them (state,
 * not status, decides: a target whose auth refusal and unknown-id refusal share one status shows
 * which it meant only by what it kept): a create again with a held item's id and other values, and
 * a delete of a held item without credentials.
 */
import { withPayload } from '../../generators/request-cases/body-encoding.js';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isSuccess } from '../../../src/core/openapi/operation.js';
import { securityOf } from '../../../src/core/openapi/security.js';
import type { Resource } from '../../../src/core/resources/model.js';
import { isJsonObject, withKey, type JsonValue } from '../../generators/json-value.js';
import type { RequestCase } from '../case-source.js';
import { credentialHeaderNames, credentialQueryNames, withoutQueryParameters } from '../auth.js';
import { endIfBroken, record } from '../sequence.js';
import { send } from '../send.js';
import { sentValues } from './commands.js';
import { describeItem, idValue, itemOf, itemPath, pickFrom, stateFacts, withItem, type Command, type Marking } from './steps.js';

/** A create with the id of held item #pick and the template's other values (the marker's token kept): an item taken over shows in later reads. */
export function createDuplicate(resource: Resource, template: RequestCase, marking: Marking, pick: number): Command {
  const property = resource.identifier.property;
  // Whether a create gave its id, read inside its envelope.
  const gave = (payload: JsonValue | undefined) => {
    const item = itemOf(resource, payload, 'request');
    return isJsonObject(item) && Object.hasOwn(item, property);
  };
  return {
    check: (model) => model.held.some((item) => item.key !== undefined && gave(item.create.payload)),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(
        model.held.filter((held) => gave(held.create.payload)),
        pick,
      );
      const inner = itemOf(resource, template.payload, 'request');
      if (item?.key === undefined || !isJsonObject(template.payload) || !isJsonObject(inner) || template.body === undefined) return;
      let taken = withKey(inner, property, idValue(resource, item.key));
      const token = item.mark?.token;
      if (marking?.by === 'marker' && token !== undefined) taken = withKey(taken, marking.property, `taken ${token}`);
      const body = withItem(resource, template.payload, taken);
      const request: RequestCase = withPayload(item.create, body);
      const because = `${describeItem(item)} was created at step ${item.step} with this id`;
      const facts = { ...stateFacts(real, model, 'duplicate', because), payload: body };
      const exchange = await send(real.env, request, facts, `step ${real.step}: create again with the id ${item.key} of a held ${resource.name}`, [
        ...real.sent,
      ]);
      const sent = record(real, exchange === undefined ? [] : [exchange]);
      endIfBroken(sent);
      // Taken in (an upsert): the item is what was sent now; refused: it must be what it was.
      if (isSuccess(sent.response.status ?? 0)) {
        const mark =
          item.mark === undefined ? undefined : marking?.by === 'marker' ? { ...item.mark, text: JSON.stringify(`taken ${token ?? ''}`) } : item.mark;
        model.held.splice(model.held.indexOf(item), 1, { ...item, create: request, mark, expected: [], sent: sentValues(resource, body, item.key) });
      }
    },
    toString: () => `duplicate(#${pick}, ${template.body ?? ''})`,
  };
}

/** A delete of held item #pick without credentials, where the delete is secured: the item must be there afterwards. */
export function deleteUnauthorised(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  const names = credentialHeaderNames(operation);
  // API keys the template carries in its query go too: the delete was sent with them, and refused nowhere.
  const queryNames = credentialQueryNames(operation);
  return {
    check: (model) => !securityOf(operation).open && model.held.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.held, pick);
      if (item?.key === undefined) return;
      const headers = Object.fromEntries(Object.entries(template.headers).filter(([name]) => !names.has(name.toLowerCase())));
      const request: RequestCase = {
        ...template,
        kind: 'invalid',
        target: 'auth',
        breaks: 'auth: no credentials',
        headers,
        path: withoutQueryParameters(itemPath(resource, operation, template, item.key, item.create.path), queryNames),
      };
      const because = `${describeItem(item)} was created at step ${item.step}; this delete carries no credentials`;
      const facts = { ...stateFacts(real, model, 'delete-unauthorised', because), kind: 'invalid' as const, target: 'auth' as const };
      const exchange = await send(real.env, request, facts, `step ${real.step}: delete ${resource.name} ${item.key} without credentials`, [...real.sent]);
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
      // The model keeps the item: a later read or list shows whether the target did.
    },
    toString: () => `deleteUnauthorised(#${pick})`,
  };
}
