/** read: the item the path names, as the document's read answer declares it; a missing one is refused (itemNotFound). */
import { compileDeclaredAnswer } from './answer-headers.js';
import { guarded, notFound, pathKey, refuse, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import { compileAnswerWriter } from './shape.js';

export function compileRead({ operation, resource, collection, echoId }: RoleParts): RoleHandler {
  const success = successAnswer(operation, [200]);
  const { write } = compileAnswerWriter(success.schema, resource.envelope?.answer, { echo: echoId ? resource.identifier.property : undefined });
  const reply = compileDeclaredAnswer(operation, success);
  return (context) => {
    const named = pathKey(resource, context);
    if ('refusal' in named) return Promise.resolve(refuse(named.refusal));
    return guarded(async () => {
      const item = await (await collection(context)).get(named.key);
      if (item === undefined) return refuse(notFound(resource, named.key));
      return reply(success.schema === undefined ? '' : write(item.fields), { item: item.fields });
    });
  };
}
