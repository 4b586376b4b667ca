/**
 * create: stores the validated body as a new item and answers it as the document declares.
 * Client-assigned identifiers are create-if-absent (a taken one is refused, the store unchanged);
 * server-assigned ones come from the collection's allocation sequence (a string one kept within its
 * schema's pattern, lengths and format: string-key.ts); where the client may give one (assignedBy
 * 'either', or a client id left out), a create without it gets an allocated one. Required
 * properties of the answer that the request lacks are made once here and stored, so every later
 * answer agrees.
 */
import { errorMessage, failure } from '../../core/errors.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemKey } from '../../core/resources/model.js';
import type { ItemFields, ItemStore } from '../../store/item-store.js';
import type { TenantId } from '../../store/tenants.js';
import { compileFill, compileServerMade, fillAll } from './fill.js';
import { IssuedSlugs } from './issued-slugs.js';
import { allocatedKey, keyFromValue, keyText, valueOfKey } from './identifier.js';
import { rulesText } from './string-key.js';
import type { HandlerContext } from '../../http/binding.js';
import type { Outcome } from '../../http/answer.js';
import { answer, compileBodyOf, guarded, isObject, refuse, singular, successAnswer, type RoleHandler, type RoleParts } from './parts.js';
import { compileHeldNames, compileHeldOnly } from './held-only.js';
import { compileAnswerWriter } from './shape.js';
import { compileAnswerHeaders } from './answer-headers.js';

/** Allocations tried before giving up: a seed or client may already hold the next numbers. */
const ALLOCATION_ATTEMPTS = 1000;

export function compileCreate({ operation, resource, collection, echoId, onCreated, missingParent }: RoleParts): RoleHandler {
  const { identifier } = resource;
  const success = successAnswer(operation, [201, 200]);
  const answered = compileAnswerWriter(success.schema, resource.envelope?.answer, { echo: echoId ? identifier.property : undefined });
  const write = success.schema === undefined ? () => '' : answered.write;
  const fill = fillAll([compileFill(answered.item), compileFill(resource.itemSchema)]);
  const serverMade = compileServerMade(resource, resource.createSchema, [answered.item, resource.itemSchema]);
  const noun = singular(resource);
  const rules = identifier.type.kind === 'string' ? identifier.type.rules : undefined;
  const declared = rules === undefined ? '' : ` keeping its schema (${rulesText(rules)})`;
  const noKeyLeft =
    rules === undefined
      ? `every ${noun} identifier within the schema's bounds is taken; delete some or reset`
      : `no ${noun} identifier can be made that keeps its schema (${rulesText(rules)})`;
  const declaredHeaders = compileAnswerHeaders(operation, success.status);
  /** `collection`: the path the create was sent to, under which the item's Location is. */
  const answerItem = (fields: ItemFields, tenant: TenantId, collection: string): Outcome | Promise<Outcome> => {
    onCreated?.(resource, fields, tenant);
    if (declaredHeaders === undefined) return answer(success.status, success.headers, write(fields));
    const location = `${collection.replace(/\/+$/, '')}/${encodeURIComponent(String(fields[identifier.property]))}`;
    return declaredHeaders({ location, item: fields }).then((headers) => answer(success.status, { ...success.headers, ...headers }, write(fields)));
  };

  // No async frame on the hot path: a create is one then on the store's answer.
  function createClientAssigned(store: ItemStore, body: ItemFields, tenant: TenantId, parents: readonly string[], collection: string): Promise<Outcome> {
    const given = body[identifier.property];
    if (given === undefined) return createServerAssigned(store, body, tenant, parents, collection);
    const key = keyFromValue(identifier.type, given);
    if (key === undefined) {
      return Promise.resolve(refuse(failure('invalidId', `${JSON.stringify(String(given))} is not an identifier of a ${noun} (${identifier.property})`)));
    }
    const fields = withKey(fill(body), identifier.property, key);
    return store
      .create({ id: key, fields })
      .then((created) =>
        created.ok ? answerItem(created.item.fields, tenant, collection) : refuse(failure('duplicateId', errorMessage('duplicateId', noun, keyText(key)))),
      );
  }

  // A slug once issued is not issued again, as allocated numbers are not (issued-slugs.ts).
  const issued = new IssuedSlugs();
  const slugScope = (tenant: TenantId, parents: readonly string[]) => JSON.stringify([tenant, ...parents]);

  async function createServerAssigned(store: ItemStore, body: ItemFields, tenant: TenantId, parents: readonly string[], collection: string) {
    const slug = serverMade.identifierSlug;
    if (slug !== undefined) {
      // The identifier is made from the item's text: the first free candidate keys it (create-if-absent: atomic).
      const scope = slugScope(tenant, parents);
      for await (const candidate of slug.candidates(body, () => store.allocate())) {
        if (issued.has(scope, candidate)) continue;
        const created = await store.create({ id: candidate, fields: withKey(fill(body), identifier.property, candidate) });
        if (!created.ok) continue;
        issued.add(scope, candidate);
        return answerItem(created.item.fields, tenant, collection);
      }
    }
    // Drawn strings vary by collection: a Worker's sid and a TaskQueue's share no random part.
    const scope = rules === undefined ? undefined : JSON.stringify([resource.name, tenant, ...parents]);
    for (let attempt = 0; attempt < ALLOCATION_ATTEMPTS; attempt++) {
      const made = allocatedKey(identifier.type, await store.allocate(), scope);
      // A promise only where a pattern is drawn: no extra wait for numbers and uuids.
      const key = made instanceof Promise ? await made : made;
      if (key === undefined) return refuse(failure('storageFailed', noKeyLeft));
      const created = await store.create({ id: key, fields: withKey(fill(body), identifier.property, key) });
      if (created.ok) return answerItem(created.item.fields, tenant, collection);
    }
    return refuse(failure('storageFailed', `no free ${noun} identifier${declared} found after ${ALLOCATION_ATTEMPTS} tries; delete some or reset`));
  }

  const bodyOf = compileBodyOf(operation, resource);
  const heldOnly = compileHeldOnly(resource, operation);
  const heldNames = compileHeldNames(resource, operation);
  return (context) => {
    const sent = bodyOf(context.body);
    if (!isObject(sent)) {
      return Promise.resolve(refuse(failure('badRequest', `a ${noun} is stored from a JSON object; this body is ${describe(sent)}`)));
    }
    const body = heldNames(heldOnly(sent as ItemFields));
    return guarded(() => (missingParent === undefined ? stored(context, body) : underParent(context, body, missingParent)));
  };

  // Under a parent that does not exist nothing is stored: the item could never be reached through its parent.
  async function underParent(context: HandlerContext, body: ItemFields, parentCheck: NonNullable<RoleParts['missingParent']>): Promise<Outcome> {
    const orphan = await parentCheck(context);
    return orphan !== undefined ? refuse(orphan) : stored(context, body);
  }

  function stored(context: HandlerContext, body: ItemFields): Promise<Outcome> {
    return collection(context).then((store) =>
      serverMade.makesNothing ? createIn(store, body, context) : serverMade.create(body, store).then((fields) => createIn(store, fields, context)),
    );
  }

  function createIn(store: ItemStore, fields: ItemFields, context: HandlerContext): Promise<Outcome> {
    // client and either alike: a given id is taken as is (refused when taken), a missing one is allocated.
    const parents = resource.parentParameters.length === 0 ? NO_PARENTS : resource.parentParameters.map((name) => context.pathParameters[name] ?? '');
    return identifier.assignedBy !== 'server'
      ? createClientAssigned(store, fields, context.tenant, parents, context.request.path)
      : createServerAssigned(store, fields, context.tenant, parents, context.request.path);
  }
}

const NO_PARENTS: readonly string[] = Object.freeze([]);

/** The fields with the identifier property holding the key (a uuid in lower case, an integer exactly). */
function withKey(fields: ItemFields, property: string, key: ItemKey): ItemFields {
  const value = valueOfKey(key);
  if (fields[property] === value) return fields;
  return { ...fields, [property]: value as JsonValue };
}

function describe(body: unknown): string {
  if (body === undefined) return 'absent';
  if (Array.isArray(body)) return 'an array';
  return body === null ? 'null' : `a ${typeof body}`;
}
