/**
 * Signed-up users as stored items: found by what identifies them (an email, a username), their
 * passwords kept sealed (a salted SHA-256, so the store, the data dir and the control API never
 * hold one in clear) and matched in constant time. A user seeded with a clear password (a seed
 * file, the control API) is matched against it as written.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { JsonValue } from '../../core/json/exact-json.js';
import { isPasswordProperty } from '../../core/resources/sign-in.js';
import type { Item, ItemFields, ItemStore } from '../../store/item-store.js';

/** How deep a body or an item is read for its properties: an envelope or two, as the core reads schemas. */
const MAX_DEPTH = 3;
/** Users read per page while looking one up. */
const PAGE = 500;
const SEALED = '$plantstore-sha256$';

/** A sealed password: `$plantstore-sha256$<salt>$<digest>`. */
export function sealPassword(clear: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `${SEALED}${salt}$${hash('sha256', `${salt}:${clear}`, 'hex')}`;
}

/** Whether `given` is the password `stored` keeps (sealed, or in clear when seeded so). */
export function passwordMatches(stored: JsonValue | undefined, given: string): boolean {
  if (typeof stored !== 'string') return false;
  if (stored.startsWith(SEALED)) {
    const [salt = '', digest = ''] = stored.slice(SEALED.length).split('$');
    return sameText(hash('sha256', `${salt}:${given}`, 'hex'), digest);
  }
  return sameText(stored, given);
}

function sameText(a: string, b: string): boolean {
  // Digests of one length, so the comparison takes the same time whatever the texts.
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

export function isRecord(value: unknown): value is Readonly<Record<string, JsonValue>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body with every password-like string sealed, through envelopes. */
export function sealPasswords(value: JsonValue, depth = 0): JsonValue {
  if (!isRecord(value) || depth > MAX_DEPTH) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      name,
      typeof inner === 'string' && isPasswordProperty(name) && !inner.startsWith(SEALED) ? sealPassword(inner) : sealPasswords(inner, depth + 1),
    ]),
  );
}

/** Every leaf of a body or item by its name (an envelope's inner names); the first one of a name wins. */
export function leafValues(value: JsonValue | undefined, into = new Map<string, JsonValue>(), depth = 0): Map<string, JsonValue> {
  if (!isRecord(value)) return into;
  for (const [name, inner] of Object.entries(value)) {
    if (isRecord(inner) && depth < MAX_DEPTH) leafValues(inner, into, depth + 1);
    else if (!into.has(name)) into.set(name, inner);
  }
  return into;
}

/** The password a body gives (through envelopes), or undefined. */
export function givenPassword(body: JsonValue | undefined): string | undefined {
  for (const [name, value] of leafValues(body)) if (isPasswordProperty(name) && typeof value === 'string') return value;
  return undefined;
}

/** The user's fields without an envelope: `{"user": {...}}` → `{...}` when the body is one object property. */
export function unwrapped(body: Readonly<Record<string, JsonValue>>, envelope: string | undefined): Readonly<Record<string, JsonValue>> {
  const inner = envelope === undefined ? undefined : body[envelope];
  return isRecord(inner) ? inner : body;
}

/** The first stored user for whom `match` holds, reading the collection a page at a time. */
export async function findUser(store: ItemStore, match: (leaves: ReadonlyMap<string, JsonValue>, item: Item) => boolean): Promise<Item | undefined> {
  let cursor: string | undefined;
  do {
    const page = await store.list({ cursor, limit: PAGE });
    const found = page.items.find((item) => match(leafValues(item.fields as JsonValue), item));
    if (found !== undefined) return found;
    cursor = page.next;
  } while (cursor !== undefined);
  return undefined;
}

/** A user stored with its envelope (`{"user": {...}}`, by a resource that does not see through one): that envelope's name. */
export function storedEnvelope(fields: Readonly<Record<string, JsonValue>>): string | undefined {
  const entries = Object.entries(fields);
  return entries.length === 1 && isRecord(entries[0]?.[1]) ? entries[0]?.[0] : undefined;
}

/**
 * Whether the users are stored flat (the usual case), so the store's own equality filter finds
 * them; users stored in their envelopes are read a page at a time instead.
 */
async function storedFlat(store: ItemStore): Promise<boolean> {
  const [first] = (await store.list({ limit: 1 })).items;
  return first === undefined || storedEnvelope(first.fields) === undefined;
}

/** The user whose identity properties all equal the given ones. */
export async function userWith(store: ItemStore, identity: ReadonlyMap<string, JsonValue>): Promise<Item | undefined> {
  if (identity.size === 0) return undefined;
  if (await storedFlat(store)) return (await store.list({ limit: 1, where: Object.fromEntries(identity) })).items[0];
  return findUser(store, (leaves) => [...identity].every(([name, value]) => leaves.get(name) === value));
}

/** The first identity value a user other than `except` already has: "email \"a@b.c\"". */
export async function takenValue(store: ItemStore, values: ReadonlyMap<string, JsonValue>, except?: Item['id']): Promise<string | undefined> {
  const given = [...values].filter(([, value]) => typeof value === 'string' && value !== '');
  if (given.length === 0) return undefined;
  const said = ([name, value]: readonly [string, JsonValue]) => `${name} ${JSON.stringify(value)}`;
  if (await storedFlat(store)) {
    for (const [name, value] of given) {
      const { items } = await store.list({ limit: 2, where: { [name]: value } });
      if (items.some((item) => item.id !== except)) return said([name, value]);
    }
    return undefined;
  }
  let taken: string | undefined;
  await findUser(store, (leaves, item) => {
    if (except !== undefined && item.id === except) return false;
    const hit = given.find(([name, value]) => leaves.get(name) === value);
    if (hit !== undefined) taken = said(hit);
    return hit !== undefined;
  });
  return taken;
}

/** A stored user's fields with `change` merged over them (a password in it sealed). */
export function mergedUser(fields: ItemFields, change: Readonly<Record<string, JsonValue>>): ItemFields {
  return { ...fields, ...(sealPasswords(change as JsonValue) as Readonly<Record<string, JsonValue>>) };
}
