/**
 * Stateful sequences from the resource model, as fast-check model-based commands (fc.commands +
 * fc.asyncModelRun): create → read → list → delete → read (gone) → list (gone) → re-create, with
 * only the roles the resource has. The model is what this sequence created and deleted; each step
 * carries it in its facts (StateFacts) and the lifecycle checks (checks/resource-lifecycle.ts)
 * judge the answer against it.
 *
 * Ids: a client-assigned id is drawn fresh for every create (sized to the identifier, IdSpace), a
 * server-assigned one is read from the create's answer. An item is recognised in a list by its id
 * where the listed items carry it, else by a marker the sequence writes into one of its text
 * properties. A sequence ends at the first step the model can no longer follow (a refused create,
 * a 5xx, no answer): the exchanges sent so far are judged.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { isSuccess } from '../../src/core/openapi/operation.js';
import type { Resource } from '../../src/core/resources/model.js';
import { PlantstoreError } from '../../src/core/errors.js';
import type { Exchange, ExchangeFacts, ItemMark, StateFacts } from '../checks/index.js';
import { isJsonObject, parseJsonExact, toJsonText, withKey, type JsonValue } from '../generators/json-value.js';
import { describeSchema, type JsonSchema } from '../generators/schema-arbitrary.js';
import type { SentRequest } from '../report.js';
import type { CaseContext, CaseSource, RequestCase } from './case-source.js';
import { freshIdFor } from './ids.js';
import { defineProperty, type Property } from './property.js';
import { sameParent, withParentOf } from './parent-path.js';
import { send, sendCreate, type RunEnv } from './send.js';

/** The document's operations for each role the resource has. */
export interface LifecycleOperations {
  readonly create: Operation;
  readonly list?: Operation | undefined;
  readonly read?: Operation | undefined;
  readonly delete?: Operation | undefined;
}

interface Item {
  /** The identifier as the item path writes it; absent when the create's answer did not say it. */
  readonly key: string | undefined;
  readonly mark: ItemMark | undefined;
  /** The create request, to send again after a delete (client-assigned ids). */
  readonly create: RequestCase;
  readonly step: number;
}

interface Model {
  readonly held: Item[];
  readonly deleted: Item[];
}

interface Real {
  readonly env: RunEnv;
  readonly exchanges: Exchange[];
  readonly sent: SentRequest[];
  step: number;
}

type Command = fc.AsyncCommand<Model, Real, boolean>;

class SequenceEnded extends PlantstoreError {
  override readonly name = 'SequenceEnded';

  constructor(message: string) {
    super('sequenceEnded', message);
  }
}

const MAX_COMMANDS = 14;

/** How lists are asked for: a small page (is the limit kept?) or everything (is every item there?). */
type ListMode = { readonly kind: 'small'; readonly limit: bigint } | { readonly kind: 'complete' };

export function lifecycleProperty(resource: Resource, operations: LifecycleOperations, source: CaseSource, context: CaseContext, runs: number): Property {
  const plain = { ...context, extraProperties: false };
  const creates = source.validCases(operations.create, plain);
  const marking = markingOf(resource);
  const commands: Array<fc.Arbitrary<Command>> = [creates.map((c) => createNew(resource, c, marking))];
  if (operations.read !== undefined) {
    const read = operations.read;
    const template = source.validCases(read, plain);
    commands.push(fc.tuple(template, fc.nat()).map(([t, pick]) => readHeld(resource, read, t, pick)));
    commands.push(fc.tuple(template, fc.nat()).map(([t, pick]) => readDeleted(resource, read, t, pick)));
  }
  if (operations.list !== undefined) {
    const list = operations.list;
    const limit = resource.list?.limit;
    // Random lists ask for a small page where the list has a limit: the canonical walk below already reads the whole list
    // (is every item there, is a deleted one gone) three times a run, and a whole list costs what the target holds.
    const mode: fc.Arbitrary<ListMode> =
      limit === undefined ? fc.constant({ kind: 'complete' }) : fc.bigInt({ min: 1n, max: 3n }).map((n): ListMode => ({ kind: 'small', limit: n }));
    commands.push(fc.tuple(source.validCases(list, plain), mode).map(([t, m]) => listItems(resource, list, t, m)));
  }
  if (operations.delete !== undefined) {
    const remove = operations.delete;
    commands.push(fc.tuple(source.validCases(remove, plain), fc.nat()).map(([t, pick]) => deleteHeld(resource, remove, t, pick)));
    if (resource.identifier.assignedBy === 'client') commands.push(fc.nat().map((pick) => recreate(pick)));
  }
  // Every run starts with the whole life in order, so no role is left to chance; random commands follow on the same model.
  const canonical = fc
    .tuple(
      creates,
      operations.read === undefined ? fc.constant(undefined) : source.validCases(operations.read, plain),
      operations.list === undefined ? fc.constant(undefined) : source.validCases(operations.list, plain),
      operations.delete === undefined ? fc.constant(undefined) : source.validCases(operations.delete, plain),
    )
    .map(([create, read, list, remove]) => {
      const steps: Command[] = [createNew(resource, create, marking)];
      const look = (): Command[] => [
        ...(read !== undefined && operations.read !== undefined ? [readHeld(resource, operations.read, read, 0)] : []),
        ...(list !== undefined && operations.list !== undefined ? [listItems(resource, operations.list, list, { kind: 'complete' })] : []),
      ];
      const gone = (): Command[] => [
        ...(read !== undefined && operations.read !== undefined ? [readDeleted(resource, operations.read, read, 0)] : []),
        ...(list !== undefined && operations.list !== undefined ? [listItems(resource, operations.list, list, { kind: 'complete' })] : []),
      ];
      steps.push(...look());
      if (list !== undefined && operations.list !== undefined && resource.list?.limit !== undefined) {
        steps.push(createNew(resource, create, marking), listItems(resource, operations.list, list, { kind: 'small', limit: 1n }));
      }
      if (remove !== undefined && operations.delete !== undefined) {
        steps.push(deleteHeld(resource, operations.delete, remove, 0), ...gone());
        if (resource.identifier.assignedBy === 'client') steps.push(recreate(0), ...look());
      }
      // What the run still holds at its end is deleted again: the target's list would otherwise grow by every run, and each later list answer with it.
      const cleanup = (model: Model): Command[] =>
        remove === undefined || operations.delete === undefined
          ? []
          : model.held.filter((item) => item.key !== undefined).map(() => deleteHeld(resource, operations.delete as Operation, remove, 0));
      return { steps, cleanup };
    });
  const sequences = fc.tuple(canonical, fc.commands(commands, { maxCommands: MAX_COMMANDS, size: '+1' }));
  return defineProperty(
    'lifecycle',
    sequences,
    runs,
    MAX_COMMANDS,
    async ([{ steps, cleanup }, sequence], env) => {
      const real: Real = { env, exchanges: [], sent: [], step: 0 };
      const model: Model = { held: [], deleted: [] };
      try {
        await fc.asyncModelRun(() => ({ model, real }), steps);
        await fc.asyncModelRun(() => ({ model, real }), sequence);
        for (const command of cleanup(model)) await command.run(model, real);
      } catch (error) {
        if (!(error instanceof SequenceEnded)) throw error;
      }
      return real.exchanges;
    },
    false,
  );
}

/** How this resource's items are told apart in a list: by their id when listed items carry it, else by a marker in a text property. */
type Marking = { readonly by: 'id'; readonly property: string } | { readonly by: 'marker'; readonly property: string } | undefined;

function markingOf(resource: Resource): Marking {
  const item = resource.itemSchema === undefined ? undefined : describeSchema(resource.itemSchema as JsonSchema);
  if (item?.properties.has(resource.identifier.property) === true) return { by: 'id', property: resource.identifier.property };
  const created = resource.createSchema === undefined ? undefined : describeSchema(resource.createSchema as JsonSchema);
  if (item === undefined || created === undefined) return undefined;
  for (const [name, schema] of created.properties) {
    const facts = describeSchema(schema);
    const free = facts.types?.has('string') === true && facts.enumValues === undefined && facts.patterns.length === 0 && (facts.maxLength ?? 64) >= 32;
    if (free && item.properties.has(name) && (schema as { format?: unknown }).format === undefined) return { by: 'marker', property: name };
  }
  return undefined;
}

function record(real: Real, exchanges: readonly Exchange[], operation?: Operation): Exchange | undefined {
  const placed = operation === undefined ? exchanges : exchanges.map((e) => ({ ...e, operation }));
  real.exchanges.push(...placed);
  real.sent.push(...placed.map((e) => e.request));
  return placed[0];
}

function endIfBroken(exchange: Exchange | undefined): asserts exchange is Exchange {
  if (exchange === undefined) throw new SequenceEnded('the request could not be sent');
  const status = exchange.response.status;
  if (status === undefined || status >= 500) throw new SequenceEnded('the target failed; its state is unknown');
}

function marks(items: readonly Item[]): ItemMark[] {
  return items.flatMap((item) => (item.mark === undefined ? [] : [item.mark]));
}

function describeItem(item: Item): string {
  return item.mark !== undefined ? `${item.mark.property} ${item.mark.text}` : `id ${item.key ?? '?'}`;
}

function stateFacts(real: Real, model: Model, step: StateFacts['step'], because: string, extra: Partial<StateFacts> = {}): ExchangeFacts {
  return {
    role: 'lifecycle',
    kind: 'valid',
    target: 'body',
    state: { step, held: marks(model.held), deleted: marks(model.deleted), ...extra },
    because: `step ${real.step} of a lifecycle run: ${because}`,
  };
}

/** The item path under the parent the item was created at, its key in place of its parameter, keeping the template's query (credentials). */
function itemPath(resource: Resource, operation: Operation, template: RequestCase, key: string, createdAt: string): string {
  const parameter = resource.identifier.parameter ?? 'id';
  const query = template.path.includes('?') ? template.path.slice(template.path.indexOf('?')) : '';
  return `${withParentOf(operation.path, createdAt).replace(`{${parameter}}`, encodeURIComponent(key))}${query}`;
}

/** The list's path: the template's undeclared query parameters (credentials) kept, the declared ones (filters, paging) replaced. */
function listPath(
  operation: Operation,
  template: RequestCase,
  limitName: string | undefined,
  mode: ListMode,
  maxLimit: bigint | undefined,
  createdAt: string | undefined,
): string {
  const declared = new Set((operation.request?.query ?? []).map((q) => q.name));
  const query = template.path.includes('?') ? template.path.slice(template.path.indexOf('?') + 1) : '';
  const kept = query.split('&').filter((pair) => pair !== '' && !declared.has(decodeURIComponent(pair.split('=')[0] ?? '')));
  const limit = mode.kind === 'small' ? mode.limit : maxLimit;
  if (limitName !== undefined && limit !== undefined) kept.push(`${encodeURIComponent(limitName)}=${limit}`);
  const templateBase = template.path.includes('?') ? template.path.slice(0, template.path.indexOf('?')) : template.path;
  const parentBase = createdAt === undefined ? undefined : withParentOf(operation.path, createdAt);
  const base = parentBase === undefined || parentBase.includes('{') ? templateBase : parentBase;
  return kept.length === 0 ? base : `${base}?${kept.join('&')}`;
}

function keyText(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : undefined;
}

function createNew(resource: Resource, template: RequestCase, marking: Marking): Command {
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      const payload = template.payload;
      if (!isJsonObject(payload) || template.body === undefined) return;
      let body: JsonValue = payload;
      let id: bigint | string | undefined;
      if (resource.identifier.assignedBy === 'client') {
        id = resource.identifier.type.kind === 'integer' ? freshIdFor(real.env) : `lc-${randomBytes(8).toString('hex')}`;
        body = withKey(payload, resource.identifier.property, id);
      }
      if (marking?.by === 'marker') body = withKey(body as never, marking.property, `lifecycle-${randomBytes(8).toString('hex')}`);
      // A nested collection: every create of the run under the first one's parent, so a list sees them all.
      const earlier = (model.held[0] ?? model.deleted[0])?.create.path;
      const path = earlier === undefined ? template.path : sameParent(earlier, template.path);
      const create: RequestCase = { ...template, path, payload: body, body: toJsonText(body) };
      const facts: ExchangeFacts = {
        role: 'create',
        kind: 'valid',
        target: 'body',
        payload: body,
        ...(typeof id === 'bigint' ? { id: { value: id, freshness: 'fresh' as const } } : {}),
        state: { step: 'create' },
      };
      // A replay cannot send the printed id again (the target holds it since the run that found the problem): it says which it sent instead.
      const fresh =
        real.env.replaying === true && id !== undefined ? ' (drawn fresh for this replay; the printed run sent another id, which the target holds now)' : '';
      const label = `step ${real.step}: create ${resource.name}${id === undefined ? '' : ` with id ${id}`}${fresh}`;
      const first = record(real, await sendCreate(real.env, create, facts, label, [...real.sent]));
      endIfBroken(first);
      if (!isSuccess(first.response.status ?? 0)) throw new SequenceEnded('the create was refused (positive-acceptance judges it)');
      let key = id === undefined ? undefined : String(id);
      if (key === undefined) {
        try {
          const answer = parseJsonExact(first.response.body);
          key = isJsonObject(answer) ? keyText(answer[resource.identifier.property]) : undefined;
        } catch {
          key = undefined; // not JSON: response-schema-conformance reports it
        }
      }
      const markValue =
        marking === undefined
          ? undefined
          : marking.by === 'id'
            ? key === undefined
              ? undefined
              : idText(resource, key)
            : toJsonText((body as Record<string, JsonValue>)[marking.property] as JsonValue);
      const mark = marking === undefined || markValue === undefined ? undefined : { property: marking.property, text: markValue };
      model.held.push({ key, mark, create, step: real.step });
    },
    toString: () => `create(${template.body ?? ''})`,
  };
}

/** An id as exact JSON text: digits for an integer id, a quoted string otherwise. */
function idText(resource: Resource, key: string): string {
  return resource.identifier.type.kind === 'integer' && /^-?\d+$/.test(key) ? key : JSON.stringify(key);
}

function pickFrom(items: readonly Item[], pick: number): Item | undefined {
  const keyed = items.filter((item) => item.key !== undefined);
  return keyed[pick % Math.max(1, keyed.length)];
}

function readHeld(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  return {
    check: (model) => model.held.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.held, pick);
      if (item?.key === undefined) return;
      const request: RequestCase = { ...template, path: itemPath(resource, operation, template, item.key, item.create.path) };
      const because = `${describeItem(item)} was created at step ${item.step}`;
      const exchange = await send(real.env, request, stateFacts(real, model, 'read-held', because), `step ${real.step}: read ${resource.name} ${item.key}`, [
        ...real.sent,
      ]);
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
    },
    toString: () => `read(#${pick})`,
  };
}

function readDeleted(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
  return {
    check: (model) => model.deleted.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.deleted, pick);
      if (item?.key === undefined) return;
      const request: RequestCase = { ...template, path: itemPath(resource, operation, template, item.key, item.create.path) };
      const because = `${describeItem(item)} was deleted before`;
      const exchange = await send(
        real.env,
        request,
        stateFacts(real, model, 'read-deleted', because),
        `step ${real.step}: read deleted ${resource.name} ${item.key}`,
        [...real.sent],
      );
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
    },
    toString: () => `readDeleted(#${pick})`,
  };
}

function listItems(resource: Resource, operation: Operation, template: RequestCase, mode: ListMode): Command {
  const limitName = resource.list?.limit;
  const limitSchema = operation.request?.query?.find((q) => q.name === limitName)?.schema;
  const maxLimit = limitSchema === undefined ? undefined : describeSchema(limitSchema as JsonSchema).integerRange.max;
  return {
    check: () => true,
    async run(model, real) {
      real.step += 1;
      const createdAt = (model.held[0] ?? model.deleted[0])?.create.path;
      const path = listPath(operation, template, limitName, mode, maxLimit, createdAt);
      const limit = mode.kind === 'small' ? mode.limit : limitName === undefined ? undefined : maxLimit;
      const because = `created ${model.held.map(describeItem).join(', ') || 'nothing held'}; deleted ${model.deleted.map(describeItem).join(', ') || 'nothing'}`;
      const facts = stateFacts(real, model, 'list', because, limit === undefined ? {} : { limit });
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

function deleteHeld(resource: Resource, operation: Operation, template: RequestCase, pick: number): Command {
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

function recreate(pick: number): Command {
  return {
    check: (model) => model.deleted.some((item) => item.key !== undefined),
    async run(model, real) {
      real.step += 1;
      const item = pickFrom(model.deleted, pick);
      if (item?.key === undefined) return;
      const because = `${describeItem(item)} was deleted at step ${item.step}`;
      const facts = { ...stateFacts(real, model, 'recreate', because), payload: item.create.payload };
      const exchange = await send(real.env, item.create, facts, `step ${real.step}: create again with the id ${item.key} of a deleted item`, [...real.sent]);
      const sent = record(real, exchange === undefined ? [] : [exchange]);
      endIfBroken(sent);
      if (!isSuccess(sent.response.status ?? 0)) throw new SequenceEnded('the deleted id was refused (deleted-id-reusable judges it)');
      model.deleted.splice(model.deleted.indexOf(item), 1);
      model.held.push({ ...item, step: real.step });
    },
    toString: () => `recreate(#${pick})`,
  };
}
