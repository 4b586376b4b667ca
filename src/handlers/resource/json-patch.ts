/**
 * JSON Patch (RFC 6902) on a stored item: add, remove, replace, move, copy and test, their paths
 * JSON Pointers (RFC 6901, not a URI fragment: no percent-decoding). The patch applies whole or not
 * at all: the item is copied, the copy changed, and the first operation that cannot apply (a path to
 * nothing, a failed test, an unknown op) refuses the patch with its reason. Values are the exact JSON
 * the request carried (bigints stay exact); members are defined, never assigned, so "__proto__" is a
 * name like any other.
 */
import { toJsonText, type JsonValue } from '../../core/json/exact-json.js';
import { jsonEqual } from '../../core/prism/json-equal.js';
import { define, isObject, type JsonObject } from './merge.js';

/** The patched value, or why the patch does not apply (said to the client). */
export function applyJsonPatch(target: JsonValue, patch: JsonValue): { readonly value: JsonValue } | { readonly refusal: string } {
  if (!Array.isArray(patch)) return { refusal: 'a JSON Patch is an array of operations' };
  let document = clone(target);
  for (const [index, operation] of patch.entries()) {
    const applied = applyOne(document, operation);
    if (typeof applied === 'string') return { refusal: `operation ${index} (${describe(operation)}): ${applied}` };
    document = applied.value;
  }
  return { value: document };
}

function applyOne(document: JsonValue, operation: JsonValue): { readonly value: JsonValue } | string {
  if (!isObject(operation)) return 'not an object';
  const { op, path, from } = operation;
  if (typeof path !== 'string') return 'its path is not a string';
  const segments = pointer(path);
  if (segments === undefined) return `the path ${JSON.stringify(path)} is not a JSON Pointer`;
  const hasValue = Object.hasOwn(operation, 'value');
  const value = operation.value as JsonValue;
  switch (op) {
    case 'add':
      return hasValue ? add(document, segments, clone(value)) : 'add needs a value';
    case 'remove':
      return remove(document, segments);
    case 'replace': {
      if (!hasValue) return 'replace needs a value';
      const removed = remove(document, segments);
      return typeof removed === 'string' ? removed : add(removed.value, segments, clone(value));
    }
    case 'move':
    case 'copy': {
      const source = typeof from === 'string' ? pointer(from) : undefined;
      if (source === undefined) return `${op} needs a from that is a JSON Pointer`;
      const found = read(document, source);
      if (found === undefined) return `from ${JSON.stringify(from)} names nothing`;
      if (op === 'copy') return add(document, segments, clone(found));
      if (segments.length > source.length && source.every((segment, at) => segments[at] === segment)) return 'move into its own child';
      const removed = remove(document, source);
      return typeof removed === 'string' ? removed : add(removed.value, segments, found);
    }
    case 'test': {
      if (!hasValue) return 'test needs a value';
      const found = read(document, segments);
      return found !== undefined && jsonEqual(found, value) ? { value: document } : 'the test failed';
    }
    default:
      return `unknown op ${JSON.stringify(op)}`;
  }
}

function add(document: JsonValue, segments: readonly string[], value: JsonValue): { readonly value: JsonValue } | string {
  if (segments.length === 0) return { value };
  const parent = read(document, segments.slice(0, -1));
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(parent)) {
    const at = last === '-' ? parent.length : arrayIndex(last);
    if (at === undefined || at > parent.length) return `no index ${last} to add at`;
    parent.splice(at, 0, value);
    return { value: document };
  }
  if (!isObject(parent)) return 'its parent is not an object or array';
  define(parent, last, value);
  return { value: document };
}

function remove(document: JsonValue, segments: readonly string[]): { readonly value: JsonValue } | string {
  if (segments.length === 0) return 'the whole item cannot be removed';
  const parent = read(document, segments.slice(0, -1));
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(parent)) {
    const at = arrayIndex(last);
    if (at === undefined || at >= parent.length) return `no index ${last} to remove`;
    parent.splice(at, 1);
    return { value: document };
  }
  if (!isObject(parent) || !Object.hasOwn(parent, last)) return 'the path names nothing';
  delete parent[last];
  return { value: document };
}

function read(document: JsonValue, segments: readonly string[]): JsonValue | undefined {
  let here: JsonValue | undefined = document;
  for (const segment of segments) {
    if (Array.isArray(here)) {
      const at = arrayIndex(segment);
      here = at === undefined ? undefined : here[at];
    } else if (isObject(here)) here = Object.hasOwn(here, segment) ? here[segment] : undefined;
    else return undefined;
  }
  return here;
}

/** RFC 6901 §3: "" is the whole document, else "/" then segments with ~1 → "/" and ~0 → "~". */
function pointer(text: string): string[] | undefined {
  if (text === '') return [];
  if (!text.startsWith('/')) return undefined;
  return text
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(segment: string): number | undefined {
  return /^(0|[1-9][0-9]{0,8})$/.test(segment) ? Number(segment) : undefined;
}

function clone(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(clone);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [name, member] of Object.entries(value)) define(copy, name, clone(member));
  return copy;
}

function describe(operation: JsonValue): string {
  const text = toJsonText(operation);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
