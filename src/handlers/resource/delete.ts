/**
 * delete: removes the item the path names and answers the declared success: 204 with no body, or
 * the removed item when the document declares one (200 with a schema). A missing item is refused
 * (itemNotFound). The identifier is free again: a client-assigned one can be created anew.
 */
import { compileDeclaredAnswer } from './answer-headers.js';
import { guarded, notFound, pathKey, refuse, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import { compileAnswerWriter } from './shape.js';

export function compileDelete({ operation, resource, collection, echoId }: RoleParts): RoleHandler {
  const success = successAnswer(operation, [204, 200]);
  const { write } = compileAnswerWriter(success.schema, resource.envelope?.answer, { echo: echoId ? resource.identifier.property : undefined });
  const reply = compileDeclaredAnswer(operation, success);
  return (context) => {
    const named = pathKey(resource, context);
    if ('refusal' in named) return Promise.resolve(refuse(named.refusal));
    return guarded(async () => {
      const store = await collection(context);
      if (success.schema === undefined) {
        return (await store.delete(named.key)) ? reply('', {}) : refuse(notFound(resource, named.key));
      }
      // The answer shows what was removed: read first; a delete that finds nothing (a race lost) is still a miss.
      const item = await store.get(named.key);
      if (item === undefined || !(await store.delete(named.key))) return refuse(notFound(resource, named.key));
      return reply(write(item.fields), {});
    });
  };
}
