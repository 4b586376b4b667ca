/**
 * Ajv's deep equality (enum, const, uniqueItems) made safe for any JSON. Ajv uses fast-deep-equal,
 * which calls an object's own toString or valueOf where it is not Object.prototype's: a JSON object
 * may have a property of either name, so a body like {"sources":[{},{"toString":[]}]} threw out of
 * validation and serve answered 500 (Eclipse Ditto's POST /api/2/connections, uniqueItems). The
 * replacement compares JSON values by their own properties only; it is installed in prism's copy of
 * Ajv's runtime module before any validator is compiled or read back, so fresh and cached ones use it.
 */
import { createRequire } from 'node:module';

const fromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
const EQUAL_MODULE = 'ajv/dist/runtime/equal';

/** Deep equality of JSON values (bigints by value), reading only own enumerable properties. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b; // NaN, as fast-deep-equal
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

let installed = false;

/** Puts jsonEqual where Ajv's generated code finds its equality (the module's `default`), once. */
export function installJsonEqual(): void {
  if (installed) return;
  installed = true;
  const runtime = fromPrism(EQUAL_MODULE) as { default: unknown };
  // Standalone code names the function by this expression, as Ajv's own does.
  runtime.default = Object.assign((a: unknown, b: unknown) => jsonEqual(a, b), { code: `require("${EQUAL_MODULE}").default` });
}
