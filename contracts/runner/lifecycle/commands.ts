/**
 * The lifecycle's commands, one per step a resource's life has: create, read (held or deleted),
 * list, delete and create again. Each sends one request with the facts the lifecycle checks judge
 * it by, and moves the model; a step the model cannot follow (a refused create, a 5xx) ends the sequence.
 */
import { withPayload } from '../../generators/request-cases/body-encoding.js';
import { randomBytes } from 'node:crypto';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import { isSuccess } from '../../../src/core/openapi/operation.js';
import type { Resource } from '../../../src/core/resources/model.js';
import { heldChecksOfBody, type Holds } from '../../../src/core/conformance/held-value.js';
import type { Exchange, ExchangeFacts, ExpectedValue } from '../../checks/index.js';
import type { SentRequest } from '../../report.js';
import { isJsonObject, toJsonText, withKey, withoutKey, type JsonObject, type JsonValue } from '../../generators/json-value.js';
import { describeSchema, type JsonSchema } from '../../generators/schema-arbitrary.js';
import type { RequestCase } from '../case-source.js';
import { freshIdValue, sentId, type RunIdentifier } from '../identifier.js';
import { sameParent } from '../parent-path.js';
import { endIfBroken, record, SequenceEnded } from '../sequence.js';
import { settableProperties } from './update.js';
import { send, sendCreate } from '../send.js';
import {
  describeExpected,
  describeItem,
  firstCreatedAt,
  idText,
  idValue,
  itemOf,
  itemPath,
  lastKnown,
  givenAgain,
  lazily,
  withOwn,
  keyFromAnswer,
  listLimits,
  listPath,
  pagingOf,
  pickFrom,
  shownFacts,
  stateFacts,
  type Command,
  type Item,
  type ListMode,
  type Marking,
  type Real,
  withItem,
} from './steps.js';

/**
 * A create of a new item. `giveId` matters only where the client may give the id or leave it to the
 * server (assignedBy 'either'): true sends a fresh one, false sends none and reads it from the answer.
 */
export function createNew(resource: Resource, template: RequestCase, marking: Marking, giveId = true, negative = false): Command {
  const { assignedBy, property } = resource.identifier;
  const gives = assignedBy === 'client' || (assignedBy === 'either' && giveId);
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      const payload = template.payload;
      if (!isJsonObject(payload) || template.body === undefined) return;
      // The item inside its envelope is what gets an id and a marker; the envelope goes back around it below.
      const inner = itemOf(resource, payload, 'request');
      if (!isJsonObject(inner)) return;
      let item: JsonObject = inner;
      let id: bigint | string | undefined;
      if (gives) {
        // Drawn by the identifier's type and rules (a string within its maxLength and pattern); the plan leaves the lifecycle out where none can be.
        // A negative id where the identifier allows one goes through the whole life too.
        id = freshIdValue(real.env.random, real.env.identifier, negative && allowsNegative(real.env.identifier)) ?? `lc-${randomBytes(8).toString('hex')}`;
        item = withKey(item, property, id);
      } else if (assignedBy === 'either') {
        item = withoutKey(item, property); // the generator may have put one in: this create is the server's to number
      }
      // The marker keeps the start of the drawn text, so what the target makes of that text shows too (stored-content-shown).
      const token = `lifecycle-${randomBytes(8).toString('hex')}`;
      if (marking?.by === 'marker') item = withKey(item, marking.property, markerOf(item[marking.property], token));
      const body = withItem(resource, payload, item);
      // A nested collection: every create of the run under the first one's parent, so a list sees them all.
      const earlier = firstCreatedAt(model);
      const path = earlier === undefined ? template.path : sameParent(earlier, template.path);
      const create: RequestCase = withPayload({ ...template, path }, body);
      const facts: ExchangeFacts = {
        role: 'create',
        kind: 'valid',
        target: 'body',
        payload: body,
        ...(id === undefined ? {} : { id: sentId(id, 'fresh', real.env.identifier) }),
        state: { step: 'create' },
      };
      // A replay cannot send the printed id again (the target holds it since the run that found the problem): it says which it sent instead.
      const fresh =
        real.env.replaying === true && id !== undefined ? ' (drawn fresh for this replay; the printed run sent another id, which the target holds now)' : '';
      const label = `step ${real.step}: create ${resource.name}${id === undefined ? (assignedBy === 'either' ? ' without an id' : '') : ` with id ${id}`}${fresh}`;
      const first = record(real, await sendCreate(real.env, create, facts, label, [...real.sent]));
      endIfBroken(first);
      if (!isSuccess(first.response.status ?? 0)) throw new SequenceEnded('the create was refused (positive-acceptance judges it)');
      const key = id === undefined ? keyFromAnswer(resource, first.response.body) : String(id);
      const markValue =
        marking === undefined
          ? undefined
          : marking.by === 'id'
            ? key === undefined
              ? undefined
              : idText(resource, key)
            : toJsonText(item[marking.property] as JsonValue);
      const mark =
        marking === undefined || markValue === undefined
          ? undefined
          : { property: marking.property, text: markValue, ...(marking.by === 'marker' ? { token } : {}) };
      // Who assigned this item's id, as this create went: the regression file sends it again or reads it from the answer.
      if (key !== undefined) nameCreated(real, first, { property, id: key, assignedBy: id === undefined ? 'server' : 'client' });
      model.held.push({ key, mark, create, step: real.step, expected: [], sent: sentValues(resource, body, key) });
    },
    toString: () => `create(${template.body ?? ''})`,
  };
}

/** The create's request, as recorded, says which item it made: a regression file names that id in later steps (reporters/regressions.ts). */
function nameCreated(real: Real, exchange: Exchange, creates: NonNullable<SentRequest['creates']>): void {
  const request = { ...exchange.request, creates };
  const at = real.sent.lastIndexOf(exchange.request);
  if (at !== -1) real.sent[at] = request;
  const recorded = real.exchanges.lastIndexOf(exchange);
  if (recorded !== -1) real.exchanges[recorded] = { ...exchange, request };
}

/** A read of an item the sequence holds (it must be there, with what updates set) or deleted (it must be gone). */
function readItem(resource: Resource, operation: Operation, template: RequestCase, pick: number, of: 'held' | 'deleted'): Command {
  return {
    check: (model) => model[of].some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model[of], pick);
      if (item?.key === undefined) return;
      const request: RequestCase = { ...template, path: itemPath(resource, operation, template, item.key, item.create.path) };
      const changed = item.expected.length === 0 ? '' : `, then changed by this sequence (${item.expected.map(describeExpected).join(', ')})`;
      const because = of === 'deleted' ? `${describeItem(item)} was deleted before` : `${describeItem(item)} was created at step ${item.step}${changed}`;
      const facts =
        of === 'deleted'
          ? stateFacts(
              real,
              model,
              'read-deleted',
              because,
              lazily({}, 'content', () => (givenAgain(real.env.client, item) ? lastKnown(item) : undefined)),
            )
          : stateFacts(real, model, 'read-held', because, {
              ...(item.expected.length === 0 ? {} : { expected: item.expected }),
              ...(item.sent.length === 0 ? {} : { content: item.sent }),
              ...(resource.envelope?.answer === undefined ? {} : { envelope: resource.envelope.answer }),
            });
      const label = `step ${real.step}: read ${of === 'deleted' ? 'deleted ' : ''}${resource.name} ${item.key}`;
      const exchange = await send(real.env, request, facts, label, [...real.sent]);
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
    },
    toString: () => `${of === 'deleted' ? 'readDeleted' : 'read'}(#${pick})`,
  };
}

export function readHeld(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  return readItem(resource, operation, template, pick, 'held');
}

export function readDeleted(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  return readItem(resource, operation, template, pick, 'deleted');
}

export function listItems(resource: Resource, operation: Operation, template: RequestCase, mode: ListMode): Command {
  const paging = pagingOf(resource, operation);
  const { sent: limit, page } = listLimits(paging, mode);
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      const createdAt = firstCreatedAt(model);
      const path = listPath(operation, template, paging, mode, createdAt);
      const because = `created ${model.held.map(describeItem).join(', ') || 'nothing held'}; deleted ${model.deleted.map(describeItem).join(', ') || 'nothing'}`;
      const countAt = resource.list?.siblings?.count;
      const pageFacts = {
        ...(limit === undefined ? {} : { limit }),
        ...(page === undefined || limit !== undefined ? {} : { page }),
        ...(countAt === undefined ? {} : { countAt }),
      };
      const facts = stateFacts(real, model, 'list', because, withOwn(pageFacts, shownFacts(model, real.env.client)));
      const exchange = await send(
        real.env,
        { ...template, path },
        facts,
        `step ${real.step}: list ${resource.name}${limit === undefined ? '' : ` (limit ${limit})`}`,
        [...real.sent],
      );
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
    },
    toString: () => `list(${mode.kind === 'small' ? mode.limit : 'all'})`,
  };
}

export function deleteHeld(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  return {
    check: (model) => model.held.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.held, pick);
      if (item?.key === undefined) return;
      const request: RequestCase = { ...template, path: itemPath(resource, operation, template, item.key, item.create.path) };
      const because = `${describeItem(item)} was created at step ${item.step}`;
      const exchange = await send(real.env, request, stateFacts(real, model, 'delete', because), `step ${real.step}: delete ${resource.name} ${item.key}`, [
        ...real.sent,
      ]);
      const sent = record(real, exchange === undefined ? [] : [exchange], operation);
      endIfBroken(sent);
      if (!isSuccess(sent.response.status ?? 0)) throw new SequenceEnded('the delete was refused (ensure-resource-availability judges it)');
      model.held.splice(model.held.indexOf(item), 1);
      model.deleted.push({ ...item, step: real.step });
    },
    toString: () => `delete(#${pick})`,
  };
}

/** A create again of a deleted item whose create gave its id (an id the server assigned is not the client's to send again). */
export function recreate(resource: Resource, pick: number): Command {
  const recreatable = (items: readonly Item[]) => items.filter((item) => gaveId(resource, item));
  return {
    check: (model) => recreatable(model.deleted).some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(recreatable(model.deleted), pick);
      if (item?.key === undefined) return;
      const because = `${describeItem(item)} was deleted at step ${item.step}`;
      const facts = { ...stateFacts(real, model, 'recreate', because), payload: item.create.payload };
      const exchange = await send(real.env, item.create, facts, `step ${real.step}: create again with the id ${item.key} of a deleted item`, [...real.sent]);
      const sent = record(real, exchange === undefined ? [] : [exchange]);
      endIfBroken(sent);
      if (!isSuccess(sent.response.status ?? 0)) throw new SequenceEnded('the deleted id was refused (deleted-id-reusable judges it)');
      model.deleted.splice(model.deleted.indexOf(item), 1);
      model.held.push({ ...item, step: real.step, expected: [], sent: sentValues(resource, item.create.payload, item.key) });
    },
    toString: () => `recreate(#${pick})`,
  };
}

function gaveId(resource: Resource, item: Item): boolean {
  const payload = itemOf(resource, item.create.payload, 'request');
  return isJsonObject(payload) && Object.prototype.hasOwnProperty.call(payload, resource.identifier.property);
}

/** The marker: the drawn text's first code points (up to 16), then the unique token; the token alone where nothing was drawn. */
function markerOf(drawn: JsonValue | undefined, token: string): string {
  const start = typeof drawn === 'string' ? [...drawn].slice(0, 16).join('') : '';
  return start === '' ? token : `${start} ${token}`;
}

/** Per resource, read once: every create of a run asks. */
const heldByResource = new WeakMap<Resource, ReadonlyMap<string, Holds>>();

function heldOf(resource: Resource): ReadonlyMap<string, Holds> {
  let held = heldByResource.get(resource);
  if (held === undefined) heldByResource.set(resource, (held = heldChecksOfBody(resource, resource.createSchema)));
  return held;
}

/**
 * What a read or list must show of what the create sent: each property the client may set that the
 * item's schema shows (objects left to update-applied's rules: a target may add to them), and the id;
 * where the item declares a property otherwise than the create, only a value its declaration holds
 * (core/conformance/held-value.ts: Box's sign request signers, each answered with a required email).
 */
export function sentValues(resource: Resource, sentBody: JsonValue | undefined, key: string | undefined): ExpectedValue[] {
  const values: ExpectedValue[] = [];
  const body = itemOf(resource, sentBody, 'request');
  if (isJsonObject(body)) {
    const held = heldOf(resource);
    for (const property of settableProperties(resource)) {
      const value = body[property];
      if (value === undefined || isJsonObject(value) || property === resource.identifier.property) continue;
      if (held.get(property)?.(value) ?? true) values.push({ property, value });
    }
  }
  const shows = resource.itemSchema !== undefined && describeSchema(resource.itemSchema as JsonSchema).properties.has(resource.identifier.property);
  if (key !== undefined && shows) values.push({ property: resource.identifier.property, value: idValue(resource, key) });
  return values;
}

function allowsNegative(identifier: RunIdentifier | undefined): boolean {
  return identifier?.kind === 'integer' && identifier.space.min < 0n;
}
