/**
 * The slugs a collection has issued, so a deleted item's slug is not issued again while the server
 * runs: as server-assigned numbers are never reused, an old link to a deleted article answers 404,
 * never another article (and verify's concurrent runs, which each own the ids they were given,
 * stay apart). Memory is bounded: past MAX_CHARACTERS over every collection, the collection used
 * longest ago is forgotten, and one collection alone past it forgets its oldest slugs (live items are still checked by the store's create-if-absent).
 * Held in memory only: after a restart, or on another replica, a deleted item's slug may come back.
 */

/** Whatever clients send: at most about 13 MB of heap (measured: 11.7 MB after a million 80-character slugs over 1,000 collections, 13.0 MB after a million in one) (docs/resources.md). */
const MAX_CHARACTERS = 4_000_000;

export class IssuedSlugs {
  private readonly scopes = new Map<string, Set<string>>();
  private characters = 0;

  has(scope: string, slug: string): boolean {
    return this.scopes.get(scope)?.has(slug) === true;
  }

  add(scope: string, slug: string): void {
    let slugs = this.scopes.get(scope);
    if (slugs === undefined) {
      slugs = new Set();
      this.scopes.set(scope, slugs);
    } else {
      // Most recently used last: the first scope in the map is the one forgotten first.
      this.scopes.delete(scope);
      this.scopes.set(scope, slugs);
    }
    if (slugs.has(slug)) return;
    slugs.add(slug);
    this.characters += slug.length;
    while (this.characters > MAX_CHARACTERS && this.scopes.size > 1) {
      const [oldest, held] = this.scopes.entries().next().value as [string, Set<string>];
      for (const forgotten of held) this.characters -= forgotten.length;
      this.scopes.delete(oldest);
    }
    // One collection alone past the bound: its slugs issued longest ago go first.
    for (const forgotten of slugs) {
      if (this.characters <= MAX_CHARACTERS) break;
      slugs.delete(forgotten);
      this.characters -= forgotten.length;
    }
  }
}
