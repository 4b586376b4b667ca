/**
 * The resources a document describes, inferred from its structure (paths, methods, parameters,
 * schemas), never from names: a collection path with a create (POST) and/or a list (GET answering
 * an array), its item path (one more segment, a path parameter) and the property that identifies
 * an item. What inference cannot settle becomes an 'ambiguous' note saying how to settle it; the
 * config file's `resources` and the document's `x-plantstore` settle it. docs/resources.md, "What is inferred".
 */
import { isJsonPatchDocument } from '../schema/json-patch.js';
import type { LoadedDocument } from '../openapi/load-document.js';
import { jsonRequestBody, operationName, requestBodySchema, type Operation } from '../openapi/operation.js';
import { findIdentifier } from './identifier.js';
import { listParameters } from './list-parameters.js';
import type { AssignedBy, Identifier, InferenceNote, OperationRef, Resource, ResourceModel, ResourceOverride, ResourceRole, ServerField } from './model.js';
import { checkOverride, configWhere, EXTENSION, overrideError, settleOverride, type OverrideOrigin } from './overrides.js';
import { nameResources } from './resource-names.js';
import { linkedWebhooks, webhookPayloads } from './webhook-links.js';
import { planServerFields } from './server-fields.js';
import { isCheckedFormat } from './schema-shape.js';
import { identifierType } from '../schema/identifier.js';
import { arrayItems, objectShape, type ObjectShape } from '../schema/properties.js';
import { typeOf } from '../schema/types.js';
import { jsonSuccessSchema } from './responses.js';
import { listEnvelope, type ListEnvelope } from '../schema/envelope.js';
import { envelopeHint, settleEnvelope, type ItemBodies } from './item-envelope.js';
import { signInOf, type SignIn } from './sign-in.js';
import { heldNames } from './held-names.js';

const ITEM_ROLES: Readonly<Record<string, ResourceRole>> = { get: 'read', put: 'replace', patch: 'update', delete: 'delete' };
const MERGE_PATCH = 'application/merge-patch+json';

/** Overrides are keyed by collection path ('/pets'); each wins over the document's x-plantstore there. */
export function inferResources(document: LoadedDocument, overrides: Readonly<Record<string, ResourceOverride>> = {}): ResourceModel {
  const paths = operationsByPath(document.operations);
  for (const path of Object.keys(overrides)) {
    if (!paths.has(path))
      throw overrideError({ source: 'config', where: configWhere(path) }, `the document has no path ${path} (its paths: ${[...paths.keys()].join(', ')})`);
  }
  const notes: InferenceNote[] = [];
  const drafts: Omit<Resource, 'name'>[] = [];
  const overrideNames: (string | undefined)[] = [];
  const settledPaths = new Set<string>();
  for (const [path, methods] of paths) {
    const extensionWhere = `${EXTENSION} on the path item ${path} (or its POST)`;
    const extension = extensionOf(document, path, methods.get('post'), extensionWhere);
    const configured = overrides[path] === undefined ? undefined : checkOverride(overrides[path], { source: 'config', where: configWhere(path) });
    const settled = settleOverride(configured, extension, path, extensionWhere);
    const create = methods.get('post');
    const list = listShape(methods.get('get'));
    if (create === undefined && list === undefined) {
      if (settled.origin !== undefined && settled.override.stateful === false) settledPaths.add(path);
      else if (settled.origin !== undefined) {
        throw overrideError(
          settled.origin,
          `${path} has no create (POST) nor list (GET answering an array) operation: it is not a collection, nothing to keep state for`,
        );
      }
      continue;
    }
    settledPaths.add(path);
    if (settled.override.stateful === false) {
      notes.push({ subject: path, level: 'info', message: `left to the mocker: "stateful": false in ${settled.origin?.where ?? 'an override'}` });
      continue;
    }
    const itemPaths = [...paths.keys()].filter((candidate) => {
      const name = itemParameterOf(path, candidate);
      if (name === undefined) return false;
      // A parameter of fixed values (Eclipse Ditto's /devops/piggyback/{serviceName}: things, policies,
      // connectivity) names one of a few known things, not an item a create makes.
      if (!takesFixedValues(parameterSchema(paths.get(candidate) ?? new Map<string, Operation>(), name))) return true;
      notes.push({ subject: candidate, level: 'info', message: `{${name}} takes fixed values (enum or const): not the path of ${path}'s items` });
      return false;
    });
    if (itemPaths.length > 1) {
      notes.push({
        subject: path,
        level: 'ambiguous',
        message: `no resource: ${path} has several item paths (${itemPaths.join(', ')}); plantstore needs one. "stateful": false (config resources["${path}"] or ${EXTENSION}) leaves it to the mocker and silences this note`,
      });
      continue;
    }
    const [itemPath] = itemPaths;
    const items = itemPath === undefined ? new Map<string, Operation>() : (paths.get(itemPath) ?? new Map<string, Operation>());
    const draft = describeResource({ path, create, list, itemPath, items, override: settled.override, origin: settled.origin, notes });
    if (draft === undefined) continue;
    drafts.push({ ...draft, source: settled.source });
    overrideNames.push(settled.override.name);
  }
  checkExtensionsPlaced(document, settledPaths);
  const names = nameResources(
    drafts.map((draft) => draft.collectionPath),
    overrideNames,
  );
  const payloads = webhookPayloads(document);
  const resources = drafts.map((draft, index): Resource => ({
    name: names[index] as string,
    ...draft,
    webhooks: linkedWebhooks(payloads, [draft.createSchema, draft.itemSchema]),
  }));
  return { resources, notes, ...signInField(document.operations) };
}

/**
 * The model a server runs on: the given one, else the one inferred with the overrides. A given model
 * says which resources to keep state for; who signs in is still the document's to say, read here.
 */
export function modelToServe(
  document: LoadedDocument,
  {
    resourceModel,
    resources,
  }: { readonly resourceModel?: ResourceModel | undefined; readonly resources?: Readonly<Record<string, ResourceOverride>> | undefined },
): ResourceModel {
  if (resourceModel === undefined) return inferResources(document, resources);
  const { signIn: _given, ...given } = resourceModel;
  return { ...given, ...signInField(document.operations) };
}

/** The document's sign-in as the model holds it: absent where no operation issues a credential. */
function signInField(operations: readonly Operation[]): { signIn?: SignIn } {
  const signIn = signInOf(operations);
  return signIn === undefined ? {} : { signIn };
}

interface Candidate {
  readonly path: string;
  readonly create: Operation | undefined;
  readonly list: ListShape | undefined;
  readonly itemPath: string | undefined;
  readonly items: ReadonlyMap<string, Operation>;
  readonly override: ResourceOverride;
  readonly origin: OverrideOrigin | undefined;
  readonly notes: InferenceNote[];
}

function describeResource(candidate: Candidate): Omit<Resource, 'name' | 'source'> | undefined {
  const { path, create, list, itemPath, items, override, origin, notes } = candidate;
  const read = items.get('get');
  const wrapped: ItemBodies = {
    create: create === undefined ? undefined : jsonRequestBody(create)?.schema,
    readAnswer: read === undefined ? undefined : objectAnswer(jsonSuccessSchema(read)),
    createAnswer: create === undefined ? undefined : objectAnswer(jsonSuccessSchema(create)),
  };
  // The item inside its envelope, where the bodies wrap it: everything below reads the item.
  const { envelope, bodies } = settleEnvelope(wrapped, override.envelope, origin, path);
  const { create: createSchema, readAnswer, createAnswer } = bodies;
  const createShape = createSchema !== undefined && typeOf(createSchema) === 'object' ? objectShape(createSchema) : undefined;
  const itemSchema = readAnswer ?? createAnswer ?? list?.items;
  const hint = envelope === undefined && override.envelope !== false ? envelopeHint(wrapped) : undefined;
  const answer = createAnswer ?? readAnswer;
  const parameterName = itemPath === undefined ? undefined : itemParameterOf(path, itemPath);
  const parameter = parameterName === undefined ? undefined : { name: parameterName, schema: parameterSchema(items, parameterName) };
  let identifier: Identifier | undefined;
  if (override.id !== undefined) {
    identifier = namedIdentifier(override.id, override.assignedBy, parameter?.name, createShape, [answer, itemSchema], origin, path, hint);
  } else {
    const finding = findIdentifier({
      collectionPath: path,
      ...(parameter !== undefined ? { parameter } : {}),
      ...(createShape !== undefined ? { create: createShape } : {}),
      ...(answer !== undefined ? { answer: objectShape(answer) } : {}),
      ...(override.assignedBy !== undefined ? { assignedBy: override.assignedBy } : {}),
      ...(hint !== undefined ? { envelopeHint: hint } : {}),
    });
    notes.push(...finding.notes);
    identifier = finding.identifier;
  }
  if (identifier === undefined) return undefined;
  identifier = fittedToItemPaths(identifier, items, parameterName);
  const operations: Partial<Record<ResourceRole, OperationRef>> = {};
  if (create !== undefined) operations.create = refOf(create);
  if (list !== undefined) operations.list = refOf(list.operation);
  for (const [method, operation] of items) {
    const role = ITEM_ROLES[method];
    if (role !== undefined) operations[role] = refOf(operation);
  }
  const postUpdate = items.has('patch') ? undefined : updateByPost(items.get('post'), itemSchema);
  if (postUpdate !== undefined) operations.update = refOf(postUpdate);
  const update = items.get('patch') ?? postUpdate;
  const itemShape = itemSchema === undefined ? undefined : objectShape(itemSchema);
  return {
    collectionPath: path,
    ...(itemPath !== undefined ? { itemPath } : {}),
    parentParameters: templateParameters(path),
    identifier,
    operations,
    ...(update !== undefined ? { update: updateKind(update) } : {}),
    ...(envelope !== undefined ? { envelope } : {}),
    ...(list !== undefined ? { list: listParameters(list.operation, itemShape, list.envelope) } : {}),
    ...(createSchema !== undefined ? { createSchema } : {}),
    ...(itemSchema !== undefined ? { itemSchema } : {}),
    webhooks: [],
    ...serverFieldsOf(planServerFields({ path, createSchema, answers: [itemSchema], identifier, override: override.fields, origin })),
  };
}

/** The plan only when it has fields: a resource the server makes nothing for reads as before. */
function serverFieldsOf(plan: readonly ServerField[]): { serverFields?: readonly ServerField[] } {
  return plan.length > 0 ? { serverFields: plan } : {};
}

/** The identifier an override names: it must be a property of the create body or of an item. */
function namedIdentifier(
  property: string,
  assignedBy: AssignedBy | undefined,
  parameter: string | undefined,
  create: ObjectShape | undefined,
  answers: readonly (object | undefined)[],
  origin: OverrideOrigin | undefined,
  path: string,
  hint: string | undefined,
): Identifier {
  const sent = create?.properties.get(property);
  const answered = answers
    .map((answer) => (answer === undefined ? undefined : objectShape(answer).properties.get(property)))
    .find((schema) => schema !== undefined);
  const where = origin ?? { source: 'config', where: configWhere(path) };
  const schema = sent ?? answered;
  if (schema === undefined) {
    const known = [
      ...new Set([
        ...(create?.properties.keys() ?? []),
        ...answers.flatMap((answer) => (answer === undefined ? [] : [...objectShape(answer).properties.keys()])),
      ]),
    ];
    // Bodies wrapped in one property: the id is inside; say the key that unwraps them.
    const unwrap = hint === undefined ? '' : `; they wrap the item in "${hint}": add "envelope": "${hint}"`;
    throw overrideError(
      where,
      `"id": "${property}" is not a property of ${path}'s items (the create body and responses have: ${known.join(', ') || 'no properties'}${unwrap})`,
    );
  }
  // Named but not settled who assigns it: as inference would (required in the create body: client; optional: either).
  const by: AssignedBy =
    assignedBy ?? (sent !== undefined && sent.readOnly !== true ? (create?.required.has(property) === true ? 'client' : 'either') : 'server');
  if (by !== 'server' && sent === undefined) {
    throw overrideError(where, `"assignedBy": "${by}", but the create body of ${path} has no property "${property}" for the client to send`);
  }
  if (by === 'either' && create?.required.has(property) === true) {
    throw overrideError(where, `"assignedBy": "either", but the create body of ${path} requires "${property}": the client always gives it ("client")`);
  }
  return { ...(parameter !== undefined ? { parameter } : {}), property, assignedBy: by, type: identifierType(schema) };
}

interface ListShape {
  readonly operation: Operation;
  /** The items' schema. */
  readonly items: object;
  /** The answer's envelope, when it is an object holding the items array. */
  readonly envelope?: ListEnvelope;
}

/** A GET answering an array, or a list envelope: an object holding exactly one array property. */
function listShape(operation: Operation | undefined): ListShape | undefined {
  if (operation === undefined) return undefined;
  const schema = jsonSuccessSchema(operation);
  const items = arrayItems(schema);
  if (items !== undefined) return { operation, items };
  const envelope = listEnvelope(schema);
  return envelope === undefined ? undefined : { operation, items: envelope.items, envelope };
}

function objectAnswer(schema: object | undefined): object | undefined {
  return schema !== undefined && typeOf(schema) === 'object' ? schema : undefined;
}

/** Operations grouped by path template, paths in the document's order. */
function operationsByPath(operations: readonly Operation[]): Map<string, Map<string, Operation>> {
  const paths = new Map<string, Map<string, Operation>>();
  for (const operation of operations) {
    const methods = paths.get(operation.path) ?? new Map<string, Operation>();
    methods.set(operation.method.toLowerCase(), operation);
    paths.set(operation.path, methods);
  }
  return paths;
}

/** The parameter's name when `candidate` is `collection` plus one segment that is exactly a path parameter. */
function itemParameterOf(collection: string, candidate: string): string | undefined {
  const prefix = collection.endsWith('/') ? collection : `${collection}/`;
  if (!candidate.startsWith(prefix)) return undefined;
  return /^\{([^{}/]+)\}$/.exec(candidate.slice(prefix.length))?.[1];
}

/**
 * Twilio and Stripe update an item by POST on it (`POST /v1/Workspaces/{Sid}`, `POST /v1/customers/{id}`),
 * with no PATCH: that POST is the item's update (a merge) where the document says so by its shapes:
 * it answers the item (the read's properties, all and only) and its body names item properties,
 * most of it (by name, or in case and separators: FriendlyName for friendly_name). A POST that does
 * something else (an action with its own body or answer) stays as it was.
 */
function updateByPost(post: Operation | undefined, itemSchema: unknown): Operation | undefined {
  if (post === undefined || itemSchema === undefined) return undefined;
  const answer = jsonSuccessSchema(post);
  const item = [...objectShape(itemSchema, { direction: 'response' }).properties.keys()];
  // The item's properties, all and only (one $ref read twice is two objects, each with its own x-stoplight id).
  const answered = answer === undefined ? [] : [...objectShape(answer, { direction: 'response' }).properties.keys()];
  if (item.length === 0 || answered.length !== item.length || !answered.every((name) => item.includes(name))) return undefined;
  const schema = requestBodySchema(post);
  const sent = [...objectShape(schema, { direction: 'request' }).properties.keys()];
  if (sent.length === 0) return undefined;
  const renamed = heldNames(sent, item);
  const declared = new Set(item);
  // Most of it (a Worker's update also takes RejectPendingReservations, a flag the item does not keep).
  const kept = sent.filter((name) => declared.has(name) || renamed.has(name)).length;
  return kept * 2 > sent.length ? post : undefined;
}

function updateKind(update: Operation): 'merge-patch' | 'json-patch' | 'merge' {
  const contents = update.request?.body?.contents ?? [];
  if (contents.some((content) => content.mediaType === MERGE_PATCH)) return 'merge-patch';
  return contents.some((content) => isJsonPatchDocument(content.schema, content.mediaType)) ? 'json-patch' : 'merge';
}

function takesFixedValues(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (Array.isArray((schema as { enum?: unknown }).enum) || Object.hasOwn(schema, 'const'));
}

function templateParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((match) => match[1] as string);
}

function parameterSchema(items: ReadonlyMap<string, Operation>, name: string): unknown {
  return parameterSchemas(items, name)[0];
}

/** The schema each item operation declares for its path parameter `name` (they may differ). */
function parameterSchemas(items: ReadonlyMap<string, Operation>, name: string): unknown[] {
  return [...items.values()].flatMap((operation) => {
    const found = operation.request?.path?.find((parameter) => parameter.name === name);
    return found === undefined ? [] : [found.schema];
  });
}

/**
 * A key the server makes for a plain string property takes the format an item operation declares
 * for its path parameter, where the request validator checks it: the key must name its item in every
 * item path. DigitalOcean's add-ons answer `uuid`, a plain string, their read declares {resource_uuid}
 * plain and their delete format uuid: the stand-in made the key "577", and its own delete refused it.
 */
function fittedToItemPaths(identifier: Identifier, items: ReadonlyMap<string, Operation>, name: string | undefined): Identifier {
  const { type } = identifier;
  const plain = type.kind === 'string' && type.rules?.format === undefined && type.rules?.pattern === undefined;
  if (name === undefined || identifier.assignedBy === 'client' || !plain) return identifier;
  for (const declared of parameterSchemas(items, name).map(identifierType)) {
    if (declared.kind === 'uuid') return { ...identifier, type: declared };
    const format = declared.kind === 'string' ? declared.rules?.format : undefined;
    if (isCheckedFormat(format)) return { ...identifier, type: { kind: 'string', rules: { ...type.rules, format } } };
  }
  return identifier;
}

function refOf(operation: Operation): OperationRef {
  return { method: operation.method.toLowerCase(), path: operation.path, name: operationName(operation) };
}

/** x-plantstore on the path item, with the create operation's own keys over it. */
function extensionOf(document: LoadedDocument, path: string, create: Operation | undefined, where: string): ResourceOverride | undefined {
  const onPath = document.pathExtensions[path]?.[EXTENSION];
  const onCreate = create?.extensions?.[EXTENSION];
  if (onPath === undefined && onCreate === undefined) return undefined;
  const origin = { source: 'extension', where } as const;
  return { ...(onPath === undefined ? {} : checkOverride(onPath, origin)), ...(onCreate === undefined ? {} : checkOverride(onCreate, origin)) };
}

/** An x-plantstore on a path that is no collection would silently do nothing: say where it belongs. */
function checkExtensionsPlaced(document: LoadedDocument, collections: ReadonlySet<string>): void {
  for (const [path, extensions] of Object.entries(document.pathExtensions)) {
    if (extensions[EXTENSION] !== undefined && !collections.has(path)) {
      throw overrideError(
        { source: 'extension', where: `${EXTENSION} on the path item ${path}` },
        `${path} is not a collection (no POST, no GET answering an array): put ${EXTENSION} on the collection path item`,
      );
    }
  }
}
