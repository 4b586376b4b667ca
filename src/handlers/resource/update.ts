/**
 * update (PATCH): changes the item the path names by JSON Merge Patch (RFC 7396) when the document
 * declares application/merge-patch+json, by JSON Patch (RFC 6902, json-patch.ts) when its body is
 * one, else by replacing the given properties. The result must stay a valid item and keep its
 * identifier; otherwise the update is refused and nothing stored.
 */
import { failure, type Failure } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { Item, ItemFields } from '../../store/item-store.js';
import { compileFill, compileServerMade, fillAll } from './fill.js';
import { valueOfKey } from './identifier.js';
import { compileIdMismatch, compileItemCheck } from './item-check.js';
import { compileHeldChange } from './held-only.js';
import { alternativeObjects, mergePatch, shallowMerge } from './merge.js';
import { compileDeclaredAnswer } from './answer-headers.js';
import { applyJsonPatch } from './json-patch.js';
import {
  compileChangeOf,
  compileJsonPatchOf,
  isObject,
  singular,
  requestSchemaOf,
  guarded,
  notFound,
  refuse,
  successAnswer,
  type RoleHandler,
  type RoleParts,
} from './parts.js';
import { compileAnswerWriter } from './shape.js';

/** Thrown out of the store's update to leave the item as it was; caught right here. */
class Refused {
  constructor(readonly failure: Failure) {}
}

/**
 * `partial`: a PUT that updates only what it sends (core/conformance/replace-kind.ts), or a replace's
 * optional body left out: a plain merge whatever the resource's PATCH is, its body read as a replace's.
 */
export function compileUpdate({ operation, resource, collection, echoId }: RoleParts, partial = false): RoleHandler {
  const success = successAnswer(operation, [200, 204]);
  const { write, item: answeredItem } = compileAnswerWriter(success.schema, resource.envelope?.answer, {
    echo: echoId ? resource.identifier.property : undefined,
  });
  const check = compileItemCheck(resource, operation);
  const property = resource.identifier.property;
  const mismatchOf = compileIdMismatch(resource, operation);
  // A replace's body was kept to what the item holds before (compileChangeOf); an update's is kept once merged.
  const held = partial ? undefined : compileHeldChange(resource, operation);
  const serverMade = compileServerMade(resource, requestSchemaOf(operation, resource), [answeredItem, resource.itemSchema]);
  // What this answer requires and the item lacks (Box's restore answers a sequence_id and path_collection no create made): made and stored, as a create and a replace do.
  const fill = fillAll([compileFill(answeredItem), compileFill(resource.itemSchema)]);
  const kind = partial ? 'merge' : resource.update;
  const whole = kind === 'merge-patch' ? alternativeObjects(resource.itemSchema) : undefined;
  const merge =
    whole !== undefined
      ? (current: ItemFields, patch: ItemFields) => mergePatch(current, patch, whole)
      : (current: ItemFields, patch: ItemFields) => shallowMerge(current, patch);

  const reply = compileDeclaredAnswer(operation, success);
  const changeOf = kind === 'json-patch' ? compileJsonPatchOf(operation, resource) : compileChangeOf(operation, resource, partial ? 'replaced' : 'updated');
  return (context) => {
    const named = changeOf(context);
    if ('refusal' in named) return Promise.resolve(refuse(named.refusal));
    const patch = named.body;
    // Merge Patch may remove the identifier with null; that is the path's to decide, so null counts as keeping it.
    const mismatch = Array.isArray(patch) || patch[property] === null ? undefined : mismatchOf(patch, named.key);
    if (mismatch) return Promise.resolve(refuse(mismatch));

    const change = (current: Item): Item => {
      let merged: ItemFields;
      if (Array.isArray(patch)) {
        // A JSON Patch applies to the item as stored, whole or not at all; it must leave the item its identifier.
        const applied = applyJsonPatch(current.fields as JsonValue, patch);
        if ('refusal' in applied) throw new Refused(failure('badRequest', `the JSON Patch does not apply: ${applied.refusal}`));
        if (!isObject(applied.value)) throw new Refused(failure('badRequest', `the JSON Patch leaves no ${singular(resource)} (an object)`));
        merged = applied.value as ItemFields;
        const moved = mismatchOf(merged, named.key);
        if (moved) throw new Refused(moved);
      } else {
        merged = merge(current.fields, patch as JsonValue & ItemFields) as ItemFields;
        if (held !== undefined) merged = held(current.fields, merged, patch);
      }
      const given = Array.isArray(patch) ? {} : patch;
      const fields: ItemFields = keepRemoved(
        fill(serverMade.change(current.fields, { ...merged, [property]: valueOfKey(named.key) as JsonValue }, given)),
        given,
      );
      const invalid = check(fields);
      if (invalid) throw new Refused(invalid);
      return { id: named.key, fields };
    };
    return guarded(async () => {
      let updated: Item | undefined;
      try {
        updated = await (await collection(context)).update(named.key, change);
      } catch (error) {
        if (error instanceof Refused) return refuse(error.failure);
        throw error;
      }
      if (updated === undefined) return refuse(notFound(resource, named.key));
      return reply(success.schema === undefined ? '' : write(updated.fields), { item: updated.fields });
    });
  };
}

/** A property the change removed (a merge patch's null) stays removed: the fill does not put it back. */
function keepRemoved(fields: ItemFields, given: ItemFields): ItemFields {
  const removed = Object.keys(given).filter((name) => given[name] === null && Object.hasOwn(fields, name) && fields[name] !== null);
  if (removed.length === 0) return fields;
  const kept: Record<string, ItemFields[string]> = { ...fields };
  for (const name of removed) delete kept[name];
  return kept;
}
