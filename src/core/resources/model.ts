/**
 * The resources a document describes, as plain data: what `serve` keeps state for and what
 * `verify` drives through stateful sequences. Inferred from the document's structure (paths,
 * methods, parameters, schemas), never from names; settled by the user where inference is
 * ambiguous (the config file's `resources`, or an `x-plantstore` extension in the document).
 *
 * One model, read by both sides: a fact about a resource written twice would drift.
 */
import type { BodySchema } from '../openapi/operation.js';
import type { ListSibling, SiblingPath } from '../schema/envelope.js';
import type { SignIn } from './sign-in.js';

export type { ListSibling, SiblingPath } from '../schema/envelope.js';

/** An item's identifier as stored: int64 kept exactly as a bigint, everything else as a string. */
export type ItemKey = bigint | string;

/** What a resource's operations do with its items. */
export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'update' | 'delete';

/** An operation of the document, named as `operationName` names it. */
export interface OperationRef {
  /** Lower-case, as prism gives it: 'post'. */
  readonly method: string;
  /** The document's path template: '/plants/{id}'. */
  readonly path: string;
  /** operationId, else "METHOD path" (operationName). */
  readonly name: string;
}

/** How identifiers are typed, from the identifier's schema. */
export type IdentifierType =
  /** An integer within its format's bounds (int32, int64; the schema's minimum/maximum narrow them). */
  | { readonly kind: 'integer'; readonly minimum: bigint; readonly maximum: bigint }
  | { readonly kind: 'uuid' }
  /** `rules`: what the schema asks of the text, where it asks anything (a server-made one must keep them). */
  | { readonly kind: 'string'; readonly rules?: StringRules };

/** A string identifier's declared constraints (Twilio's sid: `^WS[0-9a-fA-F]{32}$`, 34 long). */
export interface StringRules {
  /** ECMA-262, as the document writes it. */
  readonly pattern?: string;
  /** In code points, as JSON Schema counts. */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A format other than uuid (that one is its own kind). */
  readonly format?: string;
}

/** Who assigns an item's identifier (Identifier.assignedBy says what each means). */
export type AssignedBy = 'client' | 'server' | 'either';

export interface Identifier {
  /** The item path's parameter naming an item ('id' of /plants/{id}); absent when there is no item path. */
  readonly parameter?: string;
  /** The property of an item that holds its identifier ('id'). */
  readonly property: string;
  /**
   * client: the create body carries it (the Plant Store's NewPlant.id) and a taken one is refused;
   * server: the stand-in assigns it (sequential integers within the type's bounds, a uuid, …);
   * either: the create body may carry it (optional, not readOnly: the Swagger Petstore 3's Pet.id), and
   * a create without one gets one from the server, as such APIs do; a given one that is taken is refused.
   */
  readonly assignedBy: AssignedBy;
  readonly type: IdentifierType;
}

/** The query parameters of the list operation that page or filter it. */
export interface ListParameters {
  /** The page size parameter (limit, per_page, …), when declared. */
  readonly limit?: string;
  readonly offset?: string;
  readonly page?: string;
  readonly cursor?: string;
  /** Query parameters that name a property of an item: `?tag=aroid` keeps the items whose tag is "aroid". */
  readonly filters: readonly string[];
  /**
   * A filter whose parameter is not the property's own name: an array parameter named for the
   * property's plural (`tags` → `tag`: an item is kept when its tag is one of the given values).
   */
  readonly filterProperties?: Readonly<Record<string, string>>;
  /**
   * Filters whose property is an array of strings named for the parameter's plural (`tag` →
   * `tagList` or `tags`): an item is kept when its array contains one of the given values.
   */
  readonly filterContains?: readonly string[];
  /** The list answers an object wrapping the items array: this property of it holds the items (absent: the answer is the array). */
  readonly itemsProperty?: string;
  /**
   * Such a wrapper's count and paging facts, each filled truthfully: count (the filtered list's
   * total, not the page's), limit, offset, page, pages, next (a cursor), more. A path is the
   * property's name, or [container, name] inside an object sibling (`["meta", "total"]`).
   */
  readonly siblings?: Readonly<Partial<Record<ListSibling, SiblingPath>>>;
}

/**
 * An item wrapped in one property, per direction (`{"article": {...}}` in and out). Absent: the
 * bodies are the item itself. The model's createSchema and itemSchema are the item inside.
 */
export interface Envelope {
  /** The property the create, replace and update bodies wrap the item in. */
  readonly request?: string;
  /** The property the create, read, replace, update and delete answers wrap the item in. */
  readonly answer?: string;
}

/** Where a resource's description came from. */
export type ResourceSource = 'inferred' | 'config' | 'extension';

export interface Resource {
  /** Unique in the model: the collection path's last static segment ('plants'), qualified by its parent when two share it ('owners.pets'). */
  readonly name: string;
  /** '/plants', or '/owners/{ownerId}/pets' for a nested resource. */
  readonly collectionPath: string;
  /** '/plants/{id}'; absent when the document has none (the seed Plant Store has only POST /plants). */
  readonly itemPath?: string;
  /** The collection path's parameters, in order: a nested resource's items are scoped by their values. */
  readonly parentParameters: readonly string[];
  readonly identifier: Identifier;
  /** The document's operations on this resource, by what they do. */
  readonly operations: Readonly<Partial<Record<ResourceRole, OperationRef>>>;
  /**
   * merge-patch: the update operation accepts application/merge-patch+json (RFC 7396); json-patch: its
   * body is a JSON Patch (RFC 6902: application/json-patch+json, or an array of op/path objects, as
   * Ory Kratos declares); merge: its given properties replace the stored ones.
   */
  readonly update?: 'merge-patch' | 'json-patch' | 'merge';
  /** The item bodies' envelope, when they wrap the item (Envelope). */
  readonly envelope?: Envelope;
  readonly list?: ListParameters;
  /** The create operation's request body schema (what a client sends to make an item), inside its envelope. */
  readonly createSchema?: BodySchema;
  /** The schema of one item as the document answers it (read's, else create's success response), inside its envelope. */
  readonly itemSchema?: BodySchema;
  /** Names of the document's webhooks whose payload is this resource's create (or item) schema. */
  readonly webhooks: readonly string[];
  readonly source: ResourceSource;
  /** The properties the server makes, and how (server-fields.ts); absent or empty: none. */
  readonly serverFields?: readonly ServerField[];
}

/**
 * How the server makes a property the client does not send: slug (from another property's text,
 * unique), created-time / updated-time (now; updated-time again at each change), counter (0),
 * flag (false), default (the schema's const, enum, default or example), placeholder (a value of its type).
 */
export type ServerFieldKind = 'slug' | 'created-time' | 'updated-time' | 'counter' | 'flag' | 'default' | 'placeholder';

export interface ServerField {
  readonly property: string;
  readonly kind: ServerFieldKind;
  /** A slug's source property. */
  readonly from?: string;
  /** Why a rule fell back (a slug's pattern its text cannot meet, …), or 'config'/'extension' when an override settled it. */
  readonly note?: string;
}

/** A `fields` override: a kind, `{ "slugFrom": property }`, or "none" (not made by the server). */
export type ServerFieldOverride = Exclude<ServerFieldKind, 'slug'> | 'none' | { readonly slugFrom: string };

/** Something inference could not settle, or settled by a rule the user may want to override. */
export interface InferenceNote {
  /** The collection path (or operation name) it is about. */
  readonly subject: string;
  readonly message: string;
  /** ambiguous: inference chose nothing and says how to settle it; info: what was chosen and why. */
  readonly level: 'ambiguous' | 'info';
}

export interface ResourceModel {
  readonly resources: readonly Resource[];
  readonly notes: readonly InferenceNote[];
  /** The document's sign-in (sign-in.ts), read once with the model; absent: no operation issues a credential. */
  readonly signIn?: SignIn;
}

/** What a user may settle per resource (config `resources.<collectionPath>`, or `x-plantstore` on the collection path). */
export interface ResourceOverride {
  readonly name?: string;
  /** The identifier property of an item. */
  readonly id?: string;
  readonly assignedBy?: AssignedBy;
  /** false: no resource here, leave the operations to the mocker. */
  readonly stateful?: boolean;
  /** Which properties the server makes and how, by property (server-fields.ts). */
  readonly fields?: Readonly<Record<string, ServerFieldOverride>>;
  /** The property the item bodies wrap the item in ("article"); false: the bodies are the item, whatever their shape. */
  readonly envelope?: string | false;
}

/** The role an operation plays, with its resource: how handlers and the suite look an operation up. */
export interface OperationRole {
  readonly resource: Resource;
  readonly role: ResourceRole;
}

/** Every operation that plays a role, by its method and path template ("post /plants"). */
export function operationRoles(model: ResourceModel): ReadonlyMap<string, OperationRole> {
  const roles = new Map<string, OperationRole>();
  for (const resource of model.resources) {
    for (const [role, operation] of Object.entries(resource.operations) as [ResourceRole, OperationRef][]) {
      roles.set(roleKey(operation.method, operation.path), { resource, role });
    }
  }
  return roles;
}

/** The key `operationRoles` files an operation under. */
export function roleKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path}`;
}
