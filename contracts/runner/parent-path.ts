/**
 * A nested resource's steps stay under one parent: the item and list paths take their parent's
 * parameters (`{ownerId}`) from the path the item was created at, segment by segment, so a read
 * after `POST /owners/7/pets` asks `/owners/7/pets/{petId}`, not another owner's (or `{ownerId}`).
 */

/** The path template with each parameter the created-at path gives (same position, same static segments before it) filled in. */
export function withParentOf(template: string, createdAt: string): string {
  const base = createdAt.includes('?') ? createdAt.slice(0, createdAt.indexOf('?')) : createdAt;
  const given = base.split('/');
  const wanted = template.split('/');
  const filled: string[] = [];
  for (const [index, segment] of wanted.entries()) {
    const actual = given[index];
    const isParameter = /^\{[^}]+\}$/.test(segment);
    // An empty segment (a create path's trailing slash, Gitea's `POST /orgs/{org}/hooks/`) names no item.
    if (actual === undefined || (isParameter && actual === '') || (!isParameter && segment !== actual)) return [...filled, ...wanted.slice(index)].join('/');
    filled.push(isParameter ? actual : segment);
  }
  return filled.join('/');
}

/** The created-at path of an earlier create, with this create's own query (credentials). */
export function sameParent(earlier: string, path: string): string {
  const base = earlier.includes('?') ? earlier.slice(0, earlier.indexOf('?')) : earlier;
  return path.includes('?') ? `${base}${path.slice(path.indexOf('?'))}` : base;
}
