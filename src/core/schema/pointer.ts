/**
 * `$ref`s inside a document: a JSON pointer (RFC 6901) in a URI fragment (RFC 3986). The pointer
 * is split on "/" first and each segment decoded on its own: percent-decoding (a malformed escape
 * is kept as written), then "~1" → "/" and "~0" → "~", in that order. So `%2F` and `~1` both name
 * a key that holds a slash, never two segments; this is how prism's bundler (@stoplight/json's
 * pointerToPath) writes and reads the `$ref`s it leaves, and the one rule every reader here uses.
 */

/** The keys a local `$ref` ("#", "#/a/b") walks; undefined when it is not a local JSON pointer. */
export function pointerSegments(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  return ref.slice(2).split('/').map(decodeSegment);
}

/** One segment: percent-decoded, then ~1 and ~0 unescaped. */
export function decodeSegment(segment: string): string {
  return unescapeTilde(percentDecoded(segment));
}

function percentDecoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    // One bad escape ("%zz") spoils only itself, as in a browser's fragment.
    return segment.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

function unescapeTilde(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

/** What a local `$ref` points at in `root`; undefined when it is not local or nothing is there. */
export function resolvePointer(root: unknown, ref: string): unknown {
  const segments = pointerSegments(ref);
  if (segments === undefined) return undefined;
  let node: unknown = root;
  for (const key of segments) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
