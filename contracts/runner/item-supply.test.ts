/** The items create cases hand to delete cases (item-supply.ts): a few at a time, only to a resource a delete case takes, none once closed. */
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../src/core/resources/model.js';
import { itemSupply, type SuppliedItem } from './item-supply.js';

const plants = { name: 'plants' } as Resource;
const tags = { name: 'tags' } as Resource;

function item(resource: Resource, key: string, removed: string[] = []): SuppliedItem {
  return {
    resource,
    key,
    createdAt: `/${resource.name}`,
    request: { method: 'POST', url: `http://target/${resource.name}`, headers: {}, label: 'create' },
    remove: async () => void removed.push(key),
  };
}

describe('itemSupply', () => {
  it('hands items on oldest first, each once, without how to delete them', () => {
    const supply = itemSupply(new Set([plants]));
    expect(supply.offer(item(plants, '1'))).toBe(true);
    expect(supply.offer(item(plants, '2'))).toBe(true);
    const first = supply.take(plants);
    expect(first?.key).toBe('1');
    expect(first).not.toHaveProperty('remove');
    expect(supply.take(plants)?.key).toBe('2');
    expect(supply.take(plants)).toBeUndefined();
  });

  it('declines an item no delete case would take, and one beyond its limit', () => {
    const supply = itemSupply(new Set([plants]), 2);
    expect(supply.offer(item(tags, 't'))).toBe(false);
    expect(supply.take(tags)).toBeUndefined();
    expect(supply.offer(item(plants, '1'))).toBe(true);
    expect(supply.offer(item(plants, '2'))).toBe(true);
    expect(supply.offer(item(plants, '3'))).toBe(false);
  });

  it('once closed, gives back what it held to be deleted and takes nothing more', async () => {
    const removed: string[] = [];
    const supply = itemSupply(new Set([plants]));
    supply.offer(item(plants, '1', removed));
    supply.offer(item(plants, '2', removed));
    supply.take(plants);
    const rest = supply.close();
    for (const left of rest) await left.remove();
    expect(removed).toEqual(['2']);
    expect(supply.offer(item(plants, '3', removed))).toBe(false);
    expect(supply.take(plants)).toBeUndefined();
  });
});
