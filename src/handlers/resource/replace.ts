/**
 * replace (PUT): the validated body becomes the item the path names (what its schema cannot carry stays as stored); its identifier stays the
 * path's (a body naming another is refused; a readOnly one is ignored). A missing item is refused (itemNotFound) unless the
 * operation declares 201, the document's way of saying PUT creates: then it is created. A PUT whose body need not be a whole
 * item (core/conformance/replace-kind.ts), and an optional body left out, update only what they send (update.ts).
 */
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemFields, ItemStore } from '../../store/item-store.js';
import { objectShape } from '../../core/schema/properties.js';
import { compileFill, compileServerMade, fillAll } from './fill.js';
import { valueOfKey } from './identifier.js';
import { compileIdMismatch, compileItemCheck } from './item-check.js';
import { compileDeclaredAnswer } from './answer-headers.js';
import { compileChangeOf, requestSchemaOf, guarded, notFound, refuse, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import { compileAnswerWriter } from './shape.js';
import { compileUpdate } from './update.js';
import { replaceKind } from '../../core/conformance/replace-kind.js';

export function compileReplace(parts: RoleParts): RoleHandler {
  const { operation, resource } = parts;
  const upsert = operation.responses.some((response) => response.code === '201');
  // A PUT whose body need not be a whole item updates what it sends (Box's); one that creates (201) replaces (replaceKind says both).
  if (replaceKind(resource, operation) === 'merge') return compileUpdate(parts, true);
  const whole = compileWhole(parts, upsert);
  // An optional body left out says nothing to replace with: the item stays as it is (DigitalOcean's autoscale pool update).
  if (operation.request?.body?.required === true || upsert) return whole;
  const partial = compileUpdate(parts, true);
  return (context) => (context.body === undefined ? partial(context) : whole(context));
}

function compileWhole({ operation, resource, collection, echoId }: RoleParts, upsert: boolean): RoleHandler {
  const success = successAnswer(operation, [200, 204]);
  const created = upsert ? successAnswer(operation, [201]) : success;
  const echo = echoId ? resource.identifier.property : undefined;
  const answered = compileAnswerWriter(success.schema, resource.envelope?.answer, { echo });
  const { write } = answered;
  const writeCreated = compileAnswerWriter(created.schema, resource.envelope?.answer, { echo }).write;
  const fill = fillAll([compileFill(answered.item), compileFill(resource.itemSchema)]);
  const serverMade =
    (resource.serverFields ?? []).length > 0
      ? compileServerMade(resource, requestSchemaOf(operation, resource), [answered.item, resource.itemSchema])
      : undefined;
  const check = compileItemCheck(resource, operation);
  const property = resource.identifier.property;
  const mismatchOf = compileIdMismatch(resource, operation);

  // What the replace's body cannot carry stays as stored (RealWorld's UpdateArticle has no tagList): a PUT replaces what it can say.
  const bodyShape = objectShape(requestSchemaOf(operation, resource), { direction: 'request' });
  const unsayable = bodyShape.open
    ? []
    : [...objectShape(resource.itemSchema).properties.keys()].filter((name) => name !== property && !bodyShape.properties.has(name));
  const keepUnsayable = (current: ItemFields, next: ItemFields): ItemFields => {
    const kept: Record<string, ItemFields[string]> = { ...next };
    for (const name of unsayable) if (Object.hasOwn(current, name) && !Object.hasOwn(next, name)) kept[name] = current[name] as ItemFields[string];
    return kept;
  };
  const replied = compileDeclaredAnswer(operation, success);
  const repliedCreated = compileDeclaredAnswer(operation, created);
  const changeOf = compileChangeOf(operation, resource, 'replaced');
  return (context) => {
    const named = changeOf(context);
    if ('refusal' in named) return Promise.resolve(refuse(named.refusal));
    const { body } = named;
    const mismatch = mismatchOf(body, named.key);
    if (mismatch) return Promise.resolve(refuse(mismatch));
    const given = { ...body, [property]: valueOfKey(named.key) as JsonValue };
    const fields = fill(given);
    const invalid = check(fields);
    if (invalid) return Promise.resolve(refuse(invalid));
    // Server-made fields are the stored item's (createdAt, a slug, counters), the updated-time now: replaced in one atomic step.
    const replace = (store: ItemStore) =>
      serverMade === undefined && unsayable.length === 0
        ? store.replace({ id: named.key, fields })
        : store.update(named.key, (current) => ({
            id: named.key,
            fields: fill(keepUnsayable(current.fields, serverMade === undefined ? given : serverMade.change(current.fields, given, body))),
          }));
    return guarded(async () => {
      const store = await collection(context);
      const replaced = await replace(store);
      if (replaced !== undefined) return replied(success.schema === undefined ? '' : write(replaced.fields), { item: replaced.fields });
      if (!upsert) return refuse(notFound(resource, named.key));
      const made = await store.create({ id: named.key, fields: serverMade === undefined ? fields : fill(await serverMade.create(given, store)) });
      // Created by another request in between: this one replaces it after all.
      const item = made.ok ? made.item : await replace(store);
      if (item === undefined) return refuse(notFound(resource, named.key));
      if (!made.ok) return replied(success.schema === undefined ? '' : write(item.fields), { item: item.fields });
      // Created here: where the client reads it is the path it was put to.
      return repliedCreated(created.schema === undefined ? '' : writeCreated(item.fields), { item: item.fields, location: context.request.path });
    });
  };
}
