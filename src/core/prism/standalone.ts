/**
 * A body check written out as JavaScript that runs on its own: Ajv's standalone code of the very
 * schema the check compiled (standaloneParts), with the few CommonJS modules it requires (Ajv's
 * runtime helpers such as ucs2length and fast-deep-equal, ajv-formats' formats, prism's date-time)
 * carried along, each wrapped as a function, so `--emit-regressions` files judge a replayed answer
 * exactly as the check judged it without plantstore, Ajv or prism installed beside them.
 *
 * The text is one JavaScript expression; evaluated, it is the validator: `validate(data)` is true
 * or false, and `validate.errors` holds Ajv's errors. Licences: Ajv and ajv-formats are MIT,
 * fast-deep-equal MIT, prism-http Apache-2.0; each carried module is named by its path.
 */
import { readFileSync } from 'node:fs';
import { standaloneParts } from './adapter.js';

/** A check's compiled schema and the bundle its `$ref`s point into (a BodyCheck's `schema` and `bundle`). */
export interface CompiledSchema {
  readonly schema: object;
  readonly bundle: unknown;
}

/** require("…") in a module's text; a specifier that resolves to nothing (one inside a string) is left out. */
const REQUIRE = /\brequire\(\s*"([^"]+)"\s*\)/g;

interface Unit {
  readonly key: string;
  readonly source: string;
  /** Each specifier the unit requires → the key of the unit it is. */
  readonly deps: Record<string, string>;
}

/** The validator of `compiled` as a standalone JavaScript expression; `coerceTypes` as for headers (text read as the schema's type). */
export function standaloneValidator(compiled: CompiledSchema, coerceTypes = false): string {
  const parts = standaloneParts(compiled.schema, compiled.bundle, coerceTypes);
  const units = new Map<string, Unit>();
  const depsOf = (source: string, from: string | undefined): Record<string, string> => {
    const deps: Record<string, string> = {};
    for (const [, specifier] of source.matchAll(REQUIRE)) {
      if (specifier === undefined || deps[specifier] !== undefined) continue;
      const found = parts.resolve(specifier, from);
      if (found === undefined) continue;
      const key = 'file' in found ? keyOf(found.file) : found.name;
      deps[specifier] = key;
      if (units.has(key)) continue;
      const text = 'file' in found ? readFileSync(found.file, 'utf8') : found.source;
      units.set(key, { key, source: text, deps: {} }); // placed first: a cycle ends here
      units.set(key, { key, source: text, deps: depsOf(text, 'file' in found ? found.file : found.name) });
    }
    return deps;
  };
  const entry = depsOf(parts.code, undefined);
  const table = [...units.values()]
    .map((unit) => `${JSON.stringify(unit.key)}: [function (module, exports, require) {\n${unit.source}\n}, ${JSON.stringify(unit.deps)}]`)
    .join(',\n');
  return `(function () {
const units = {
${table}
};
const loaded = {};
function requireFrom(deps) {
  return function (specifier) {
    const key = deps[specifier];
    if (key === undefined || units[key] === undefined) throw new Error("the validator requires " + specifier + ", which was not carried along");
    if (loaded[key] === undefined) {
      const module = { exports: {} };
      loaded[key] = module;
      units[key][0](module, module.exports, requireFrom(units[key][1]));
    }
    return loaded[key].exports;
  };
}
const module = { exports: {} };
(function (module, exports, require) {
${parts.code}
})(module, module.exports, requireFrom(${JSON.stringify(entry)}));
return module.exports;
})()`;
}

/** A module's name without the machine's paths: what follows the last node_modules/ ("ajv/dist/runtime/equal.js"). */
function keyOf(file: string): string {
  const normal = file.split('\\').join('/');
  const at = normal.lastIndexOf('/node_modules/');
  return at === -1 ? normal.slice(normal.lastIndexOf('/') + 1) : normal.slice(at + '/node_modules/'.length);
}
