/**
 * Resource names: the collection path's last static segment ('/plants' → 'plants'); resources that
 * share one are qualified by the static segment before it ('owners.pets'), then numbered. A name
 * an override gives is kept as given, and must be unique.
 */
import { PlantstoreError } from '../errors.js';

export function nameResources(collectionPaths: readonly string[], given: readonly (string | undefined)[]): string[] {
  const staticSegments = collectionPaths.map((path) => path.split('/').filter((segment) => segment !== '' && !segment.includes('{')));
  const plain = staticSegments.map((segments, index) => given[index] ?? segments.at(-1) ?? 'root');
  const qualified = plain.map((name, index) => {
    if (given[index] !== undefined || plain.filter((other) => other === name).length === 1) return name;
    const parent = staticSegments[index]?.at(-2);
    return parent === undefined ? name : `${parent}.${name}`;
  });
  const names: string[] = [];
  for (const [index, name] of qualified.entries()) {
    if (given[index] !== undefined && (names.includes(name) || qualified.some((other, at) => at !== index && other === name))) {
      throw new PlantstoreError(
        'config',
        `resource name "${name}" (given for ${collectionPaths[index]}) is also the name of another resource: names must be unique`,
      );
    }
    let unique = name;
    for (let n = 2; names.includes(unique); n += 1) unique = `${name}.${n}`;
    names.push(unique);
  }
  return names;
}
