/**
 * Stateful sequences from the resource model, as fast-check model-based commands (fc.asyncModelRun):
 * create → read → list → update → read → replace → read → delete → read (gone) → list (gone) →
 * re-create, with only the roles the resource has, then random commands on the same model. The
 * model is what this sequence created, changed and deleted; each step carries it in its facts
 * (StateFacts) and the lifecycle checks judge the answer against it.
 *
 * Shrinking: the walk drops steps (the last first) and the random commands are an array, so a
 * finding shrinks to the few steps that still show it, and `--replay` sends those very steps
 * (runner/sequence.ts says why not fc.commands).
 *
 * Ids: a client-assigned id is drawn fresh for every create (sized to the identifier, IdSpace), a
 * server-assigned one is read from the create's answer; where the client may give it or not
 * ('either'), creates do both, and only an item created with its id is created again. An item is recognised in a list by its id
 * where the listed items carry it, else by a marker the sequence writes into one of its text
 * properties. A sequence ends at the first step the model can no longer follow (a refused create,
 * a 5xx, no answer): the exchanges sent so far are judged.
 */
import fc from 'fast-check';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import type { Resource } from '../../../src/core/resources/model.js';
import type { CaseContext, CaseSource, RequestCase } from '../case-source.js';
import { defineProperty, type Property } from '../property.js';
import { droppable, newReal, runSequence } from '../sequence.js';
import { createNew, deleteHeld, listItems, readDeleted, readHeld, recreate } from './commands.js';
import { markingOf, type Command, type LifecycleOperations, type ListMode, type Model } from './steps.js';
import { changeHeld } from './update.js';
import { createDuplicate, deleteUnauthorised } from './probes.js';
import { listFiltered, withFilterValue } from './filters.js';
import { securityOf } from '../../../src/core/openapi/security.js';

export type { LifecycleOperations } from './steps.js';

const MAX_COMMANDS = 14;

/** The steps of the ordered walk every run starts with. */
type WalkStep =
  | 'create'
  | 'create-negative'
  | 'duplicate'
  | 'delete-unauthorised'
  | 'list-filtered'
  | 'list-filtered-one'
  | 'create-without-id'
  | 'read'
  | 'read-latest'
  | 'read-deleted'
  | 'list'
  | 'list-small'
  | 'update'
  | 'replace'
  | 'delete'
  | 'recreate';

/** One request template per role the resource has (undefined where it has none). */
type Templates = { readonly [Role in keyof LifecycleOperations]: RequestCase | undefined };

/** The whole life in order, so no role is left to chance: only the steps the resource's roles allow. */
function walkOf(resource: Resource, operations: LifecycleOperations): WalkStep[] {
  const look: WalkStep[] = [...(operations.read ? ['read' as const] : []), ...(operations.list ? ['list' as const] : [])];
  // A second item (with a negative id where the identifier allows one), then each read back: each read answers its own item.
  const walk: WalkStep[] = ['create', ...look, 'create-negative', ...(operations.read ? (['read', 'read-latest'] as const) : [])];
  // Two values where the filter takes many (half-applied shows), then one (ignored shows, the other walk item left out).
  if (operations.list !== undefined && (resource.list?.filters.length ?? 0) > 0) walk.push('list-filtered', 'list-filtered-one');
  // What must leave the state as it was, each followed by a look: a create with a held item's id, a delete without credentials.
  if (resource.identifier.assignedBy !== 'server') walk.push('duplicate', ...look);
  if (operations.delete !== undefined && !securityOf(operations.delete).open) walk.push('delete-unauthorised', ...look);
  // The client may give the id or leave it out: both, each read back (the walk's first create, with an id, is the one re-created).
  if (resource.identifier.assignedBy === 'either') walk.push('create-without-id', ...(operations.read ? ['read-latest' as const] : []));
  if (operations.list !== undefined && resource.list?.limit !== undefined) walk.push('create', 'list-small');
  if (operations.update !== undefined) walk.push('update', ...(operations.read ? ['read' as const] : []));
  if (operations.replace !== undefined) walk.push('replace', ...(operations.read ? ['read' as const] : []));
  if (operations.delete !== undefined) {
    walk.push('delete', ...(operations.read ? ['read-deleted' as const] : []), ...(operations.list ? ['list' as const] : []));
    if (resource.identifier.assignedBy !== 'server') walk.push('recreate', ...look);
  }
  return walk;
}

export function lifecycleProperty(resource: Resource, operations: LifecycleOperations, source: CaseSource, context: CaseContext, runs: number): Property {
  const plain = { ...context, extraProperties: false };
  const marking = markingOf(resource, operations.list);
  const templateOf = (operation: Operation | undefined): fc.Arbitrary<RequestCase | undefined> =>
    operation === undefined ? fc.constant(undefined) : source.validCases(operation, plain);
  const templates: fc.Arbitrary<Templates> = fc.record({
    create: source.validCases(operations.create, plain),
    read: templateOf(operations.read),
    list: templateOf(operations.list),
    delete: templateOf(operations.delete),
    update: templateOf(operations.update),
    replace: templateOf(operations.replace),
  });

  const stepOf = (step: WalkStep, t: Templates): Command | undefined => {
    const { read, list, update, replace } = operations;
    const remove = operations.delete;
    switch (step) {
      case 'create':
        return t.create === undefined ? undefined : createNew(resource, withFilterValue(resource, t.create), marking);
      case 'create-negative':
        return t.create === undefined ? undefined : createNew(resource, withFilterValue(resource, t.create), marking, true, true);
      case 'list-filtered':
        return list && t.list ? listFiltered(resource, list, t.list) : undefined;
      case 'list-filtered-one':
        return list && t.list ? listFiltered(resource, list, t.list, true) : undefined;
      case 'duplicate':
        return t.create === undefined ? undefined : createDuplicate(resource, t.create, marking, 0);
      case 'delete-unauthorised':
        return remove && t.delete ? deleteUnauthorised(resource, remove, t.delete, 0) : undefined;
      case 'create-without-id':
        return t.create === undefined ? undefined : createNew(resource, t.create, marking, false);
      case 'read':
        return read && t.read ? readHeld(resource, read, t.read, 0) : undefined;
      case 'read-latest':
        return read && t.read ? readHeld(resource, read, t.read, -1) : undefined;
      case 'read-deleted':
        return read && t.read ? readDeleted(resource, read, t.read, 0) : undefined;
      case 'list':
        return list && t.list ? listItems(resource, list, t.list, { kind: 'complete' }) : undefined;
      case 'list-small':
        return list && t.list ? listItems(resource, list, t.list, { kind: 'small', limit: 1n }) : undefined;
      case 'update':
        return update && t.update ? changeHeld(resource, update, 'update', t.update, 0, marking) : undefined;
      case 'replace':
        return replace && t.replace ? changeHeld(resource, replace, 'replace', t.replace, 0, marking) : undefined;
      case 'delete':
        return remove && t.delete ? deleteHeld(resource, remove, t.delete, 0) : undefined;
      case 'recreate':
        return recreate(resource, 0);
    }
  };

  // Where the id is the client's to give or leave out, random creates do either.
  const commands: Array<fc.Arbitrary<Command>> = [
    resource.identifier.assignedBy === 'either'
      ? fc.tuple(source.validCases(operations.create, plain), fc.boolean()).map(([c, gives]) => createNew(resource, c, marking, gives))
      : source.validCases(operations.create, plain).map((c) => createNew(resource, c, marking)),
  ];
  const picked = (operation: Operation | undefined, make: (operation: Operation, template: RequestCase, pick: number) => Command): void => {
    if (operation !== undefined) commands.push(fc.tuple(source.validCases(operation, plain), fc.nat()).map(([t, pick]) => make(operation, t, pick)));
  };
  picked(operations.read, (o, t, pick) => readHeld(resource, o, t, pick));
  picked(operations.read, (o, t, pick) => readDeleted(resource, o, t, pick));
  picked(operations.update, (o, t, pick) => changeHeld(resource, o, 'update', t, pick, marking));
  picked(operations.replace, (o, t, pick) => changeHeld(resource, o, 'replace', t, pick, marking));
  picked(operations.delete, (o, t, pick) => deleteHeld(resource, o, t, pick));
  if (operations.list !== undefined) {
    const list = operations.list;
    const limit = resource.list?.limit;
    // Random lists ask for a small page where the list has a limit: the walk already reads the whole list
    // (is every item there, is a deleted one gone) up to three times a run, and a whole list costs what the target holds.
    const mode: fc.Arbitrary<ListMode> =
      limit === undefined ? fc.constant({ kind: 'complete' }) : fc.bigInt({ min: 1n, max: 3n }).map((n): ListMode => ({ kind: 'small', limit: n }));
    commands.push(fc.tuple(source.validCases(list, plain), mode).map(([t, m]) => listItems(resource, list, t, m)));
  }
  if (operations.delete !== undefined && resource.identifier.assignedBy !== 'server') commands.push(fc.nat().map((pick) => recreate(resource, pick)));
  // Filtered lists among the random commands too: by then the sequence may hold items with two values to ask for.
  const filtered = operations.list;
  if (filtered !== undefined && (resource.list?.filters.length ?? 0) > 0)
    commands.push(source.validCases(filtered, plain).map((t) => listFiltered(resource, filtered, t)));

  const walk = walkOf(resource, operations);
  const sequences = fc.tuple(templates, droppable(walk), fc.array(fc.oneof(...commands), { maxLength: MAX_COMMANDS, size: '+1' }));
  return defineProperty('lifecycle', sequences, runs, walk.length + MAX_COMMANDS / 2, async ([t, kept, random], env) => {
    const steps = kept.flatMap((step) => stepOf(step, t) ?? []);
    // What the run still holds at its end is deleted again: the target's list would otherwise grow by every run, and each later list answer with it.
    const cleanup = (model: Model): Command[] => {
      const remove = operations.delete;
      if (remove === undefined || t.delete === undefined) return [];
      const template = t.delete;
      return model.held.filter((item) => item.key !== undefined).map(() => deleteHeld(resource, remove, template, 0));
    };
    return runSequence<Model, ReturnType<typeof newReal>>({ held: [], deleted: [] }, newReal(env), [steps, random, cleanup]);
  });
}
