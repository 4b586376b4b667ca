/**
 * Two steps of prism's reading of a document (getHttpOperationsFromSpec), done with the same result
 * for a fraction of the work: on large documents they were a third of a cold start (profiled: on a
 * 4.9 MB document, @stoplight/json's decycle 3.5 s, its bundleTarget 1.0 s).
 * test/document/tree-steps.test.ts compares each with @stoplight/json's own, output and key order.
 */
type JsonModule = typeof import('@stoplight/json');

/**
 * @stoplight/json's decycle, same output: a tree copy of `value` (objects reached twice are copied
 * twice), where an object met again inside itself becomes `{ $ref: pointer to where it was first met }`.
 * Its version encodes the JSON pointer of every object it copies, in case it is met again; this one
 * keeps the path as a stack and encodes a pointer only for a cycle found, which is rare.
 */
export function decycle(json: JsonModule, value: unknown): unknown {
  const path: string[] = [];
  /** Objects on the way down from the root, each with the length of the path where it was met. */
  const open = new Map<object, number>();
  const copy = (node: unknown): unknown => {
    if (!Array.isArray(node) && !json.isPlainObject(node)) return node;
    const depth = open.get(node);
    if (depth !== undefined) return { $ref: json.pathToPointer(path.slice(0, depth)) };
    open.set(node, path.length);
    let copied: unknown;
    if (Array.isArray(node)) {
      copied = node.map((item: unknown, index) => {
        path.push(String(index));
        const inner = copy(item);
        path.pop();
        return inner;
      });
    } else {
      const target: Record<string, unknown> = {};
      for (const key of Object.keys(node)) {
        path.push(key);
        // Assignment, not defineProperty, as decycle does (a "__proto__" key then sets the prototype).
        target[key] = copy((node as Record<string, unknown>)[key]);
        path.pop();
      }
      copied = target;
    }
    open.delete(node);
    return copied;
  };
  return copy(value);
}

/**
 * Whether bundleTarget({ document, path: '#/__target__', cloneDocument: false }) would hand `target`
 * back untouched: it changes an operation only where an object in it has a `$ref` (a cycle decycle
 * left, or a reference http-spec kept), or when the document carries its `__errors__` root. Any
 * object with a `$ref` key, a cycle, or a document with an `__errors__` root means "ask bundleTarget".
 */
export function bundlesToItself(document: object, target: object): boolean {
  if ('__errors__' in document) return false;
  const seen = new Set<object>();
  const clean = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null) return true;
    if (seen.has(node)) return !onPath.has(node);
    if (!Array.isArray(node) && '$ref' in node) return false;
    seen.add(node);
    onPath.add(node);
    for (const key of Object.keys(node)) if (!clean((node as Record<string, unknown>)[key])) return false;
    onPath.delete(node);
    return true;
  };
  const onPath = new Set<object>();
  return clean(target);
}
