/**
 * The claims that keep one email to one user across replicas (src/handlers/sign-in/claims.ts):
 * a value is claimed once; a claim whose user is gone, or has another value now, is taken over;
 * one still waiting for its user is not, until CLAIM_GRACE_MS has passed with no user holding it.
 */
import { describe, expect, it } from 'vitest';
import { CLAIM_GRACE_MS, claimValues } from '../../src/handlers/sign-in/claims.js';
import { memoryItems } from '../resources/memory-items.js';

const email = (value: string) => new Map([['email', value]]);

describe('claimValues', () => {
  it('claims a value once; the second claim names it; a release frees it', async () => {
    const [claims, users] = [memoryItems(), memoryItems()];
    const first = await claimValues(claims, users, email('a@example.com'));
    expect(first.ok).toBe(true);
    expect(await claimValues(claims, users, email('a@example.com'))).toEqual({ ok: false, taken: 'email "a@example.com"' });
    if (first.ok) await first.release();
    expect((await claimValues(claims, users, email('a@example.com'))).ok).toBe(true);
  });

  it('gives back what it claimed when a later value is taken', async () => {
    const [claims, users] = [memoryItems(), memoryItems()];
    expect((await claimValues(claims, users, new Map([['username', 'bo']]))).ok).toBe(true);
    const both = await claimValues(
      claims,
      users,
      new Map([
        ['email', 'b@example.com'],
        ['username', 'bo'],
      ]),
    );
    expect(both).toEqual({ ok: false, taken: 'username "bo"' });
    expect((await claimValues(claims, users, email('b@example.com'))).ok).toBe(true);
  });

  it('takes over a claim whose user is gone or has changed its value, not one whose user still has it', async () => {
    const [claims, users] = [memoryItems(), memoryItems()];
    await users.create({ id: 1n, fields: { email: 'c@example.com' } });
    const claimed = await claimValues(claims, users, email('c@example.com'));
    if (claimed.ok) await claimed.held(1n);
    expect((await claimValues(claims, users, email('c@example.com'))).ok).toBe(false);
    await users.update(1n, () => ({ id: 1n, fields: { email: 'new@example.com' } }));
    expect((await claimValues(claims, users, email('c@example.com'))).ok).toBe(true);
    const again = await claimValues(claims, users, email('d@example.com'));
    if (again.ok) await again.held('u-9');
    expect((await claimValues(claims, users, email('d@example.com'))).ok).toBe(true);
  });

  it('leaves a claim still waiting for its user alone until the grace has passed with no user holding the value', async () => {
    const [claims, users] = [memoryItems(), memoryItems()];
    let now = 1_000_000;
    expect((await claimValues(claims, users, email('e@example.com'), () => now)).ok).toBe(true);
    now += CLAIM_GRACE_MS - 1;
    expect((await claimValues(claims, users, email('e@example.com'), () => now)).ok).toBe(false);
    now += 2;
    expect((await claimValues(claims, users, email('e@example.com'), () => now)).ok).toBe(true);
  });
});
