/**
 * The values no two users may share (an email, a username), claimed atomically: replicas on one
 * Redis each checked "no user has this email" and then stored theirs, so three replicas took the
 * same sign-up three times. Each value is an item of a claims collection keyed by the value, and
 * the store's create-if-absent is atomic on every store. A claim names its user once that is
 * stored; one whose user is gone or has another value now is stale and taken over (atomically,
 * only if it is still the one seen), as is one left without a user for CLAIM_GRACE_MS (a sign-up
 * that died half-way).
 */
import { randomUUID } from 'node:crypto';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ItemKey } from '../../core/resources/model.js';
import type { Item, ItemStore } from '../../store/item-store.js';
import { leafValues, takenValue } from './users.js';

/** Longer than any sign-up takes between its claim and its stored user. */
export const CLAIM_GRACE_MS = 10_000;

export interface Claimed {
  /** Names the stored user on each claim, so a later sign-up can tell when the claim outlived it. */
  held(user: ItemKey): Promise<void>;
  /** Gives the values back: the sign-up failed. */
  release(): Promise<void>;
}

export type ClaimResult = ({ readonly ok: true } & Claimed) | { readonly ok: false; readonly taken: string };

/** Claims each of `values` (strings; others are not compared) in `claims`, for a user to be stored in `users`. */
export async function claimValues(
  claims: ItemStore,
  users: ItemStore,
  values: ReadonlyMap<string, JsonValue>,
  now: () => number = Date.now,
): Promise<ClaimResult> {
  const made: string[] = [];
  const release = async (): Promise<void> => {
    await Promise.all(made.map((id) => claims.delete(id)));
  };
  for (const [name, value] of values) {
    if (typeof value !== 'string' || value === '') continue;
    const id = `${name}=${JSON.stringify(value)}`;
    if (!(await claimOne(claims, users, id, name, value, now))) {
      await release();
      return { ok: false, taken: `${name} ${JSON.stringify(value)}` };
    }
    made.push(id);
  }
  return {
    ok: true,
    release,
    async held(user) {
      const named = { user: String(user), userKind: typeof user === 'bigint' ? 'integer' : 'text' };
      await Promise.all(made.map((id) => claims.update(id, (current) => ({ id: current.id, fields: { ...current.fields, ...named } }))));
    },
  };
}

async function claimOne(claims: ItemStore, users: ItemStore, id: string, name: string, value: string, now: () => number): Promise<boolean> {
  const fields = { nonce: randomUUID(), at: now() };
  if ((await claims.create({ id, fields })).ok) return true;
  const seen = await claims.get(id);
  // Released meanwhile: free again.
  if (seen === undefined) return (await claims.create({ id, fields })).ok;
  if (!(await isStale(seen, users, name, value, now))) return false;
  const taken = await claims.update(id, (current) => (current.fields['nonce'] === seen.fields['nonce'] ? { id: current.id, fields } : current));
  return taken?.fields['nonce'] === fields.nonce;
}

async function isStale(claim: Item, users: ItemStore, name: string, value: string, now: () => number): Promise<boolean> {
  const { user, userKind, at } = claim.fields;
  if (typeof user === 'string') {
    const holder = await users.get(userKind === 'integer' && /^-?[0-9]+$/.test(user) ? BigInt(user) : user);
    return holder === undefined || leafValues(holder.fields as JsonValue).get(name) !== value;
  }
  return now() - Number(at) > CLAIM_GRACE_MS && (await takenValue(users, new Map([[name, value]]))) === undefined;
}
