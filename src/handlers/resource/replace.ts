/**
 * replace (PUT): the validated body becomes the item the path names; its identifier stays the
 * path's (a body naming another is refused; a readOnly one is ignored). A missing item is refused (itemNotFound) unless the
 * operation declares 201, the document's way of saying PUT creates: then it is created.
 */
import { failure } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemFields } from '../../store/item-store.js';
import { compileFill, fillAll } from './fill.js';
import { valueOfKey } from './identifier.js';
import { compileIdMismatch, compileItemCheck } from './item-check.js';
import { answer, compileBodyOf, guarded, isObject, notFound, pathKey, refuse, singular, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import { compileAnswerWriter } from './shape.js';

export function compileReplace({ operation, resource, collection, echoId }: RoleParts): RoleHandler {
  const success = successAnswer(operation, [200, 204]);
  const upsert = operation.responses.some((response) => response.code === '201');
  const created = upsert ? successAnswer(operation, [201]) : success;
  const echo = echoId ? resource.identifier.property : undefined;
  const answered = compileAnswerWriter(success.schema, resource.envelope?.answer, { echo });
  const { write } = answered;
  const writeCreated = compileAnswerWriter(created.schema, resource.envelope?.answer, { echo }).write;
  const fill = fillAll([compileFill(answered.item), compileFill(resource.itemSchema)]);
  const check = compileItemCheck(resource, operation);
  const property = resource.identifier.property;
  const mismatchOf = compileIdMismatch(resource, operation);

  const bodyOf = compileBodyOf(operation, resource);
  return (context) => {
    const named = pathKey(resource, context);
    if ('refusal' in named) return Promise.resolve(refuse(named.refusal));
    const body = bodyOf(context.body);
    if (!isObject(body)) return Promise.resolve(refuse(failure('badRequest', `a ${singular(resource)} is replaced by a JSON object`)));
    const mismatch = mismatchOf(body as ItemFields, named.key);
    if (mismatch) return Promise.resolve(refuse(mismatch));
    const fields = fill({ ...(body as ItemFields), [property]: valueOfKey(named.key) as JsonValue });
    const invalid = check(fields);
    if (invalid) return Promise.resolve(refuse(invalid));
    return guarded(async () => {
      const store = await collection(context);
      const replaced = await store.replace({ id: named.key, fields });
      if (replaced !== undefined) return answer(success.status, success.headers, success.schema === undefined ? '' : write(replaced.fields));
      if (!upsert) return refuse(notFound(resource, named.key));
      const made = await store.create({ id: named.key, fields });
      // Created by another request in between: this one replaces it after all.
      const item = made.ok ? made.item : await store.replace({ id: named.key, fields });
      if (item === undefined) return refuse(notFound(resource, named.key));
      const answered = made.ok ? created : success;
      return answer(answered.status, answered.headers, answered.schema === undefined ? '' : (made.ok ? writeCreated : write)(item.fields));
    });
  };
}
