import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { IHttpOperation, IHttpParam } from '@stoplight/types';
import { SEVERITY } from './severity.js';
import type { JsonValue } from '../json/exact-json.js';
import { validationView, widenInt64Bounds } from './int64-bounds.js';
import { installJsonEqual } from './json-equal.js';
import { PATTERN_MODULE, STANDALONE_PATTERN_SOURCE, compilePattern, patternEngine } from '../regexp/pattern.js';
import { readValidator, validatorKey, writeValidator } from './validator-cache.js';

/**
 * The one adapter to @stoplight/prism-http: nothing else in plantstore imports its dist/ files.
 *
 * Why deep requires: the validator and mocker are not exported from prism's package root, and the
 * operations builder that is (getHttpOperationsFromSpec) comes with a root index.js that eagerly
 * requires ./mocker (faker, json-schema-faker): requiring the root costs ~2.5 s at start-up, the
 * deep utils/operations.js ~0.9 s. Deep requires are the only lazy way in. A default `import` of a
 * CommonJS dist file binds differently under Node (module.exports) and under vitest's transform
 * (module.exports.default), so they are loaded with require, which gives module.exports everywhere,
 * and typed from prism's own declarations.
 *
 * Ajv and ajv-formats are prism's own copies, resolved from prism's folder rather than declared in
 * package.json: compileSchemaCheck must judge exactly as prism does, and a declared dependency could
 * resolve to another version (prism pins ajv-formats 2.x; a top-level one would be 3.x today).
 *
 * Each part is loaded on first use, not at import: start-up with a cached document needs only Ajv
 * (see core/openapi/operations-cache.ts); the operations builder, the parameter validator, prism's
 * error wording and the mocker each cost 0.1–1.2 s of module loading that a start may not need.
 */
const require = createRequire(import.meta.url);

type SchemaValidation = typeof import('@stoplight/prism-http/dist/validator/validators/utils.js');
type Validation = typeof import('@stoplight/prism-http/dist/validator/index.js');
type Mocker = typeof import('@stoplight/prism-http/dist/mocker/index.js');
type Operations = typeof import('@stoplight/prism-http/dist/utils/operations.js');

/** Requires `path` the first time the returned function is called. */
function lazy<T>(path: string): () => T {
  let loaded: T | undefined;
  return () => {
    // prism's own validators (its mocker's, validateAgainstSchema) compile with the same equality.
    installJsonEqual();
    return (loaded ??= require(path) as T);
  };
}

/** Builds six Ajv instances at load; needed for error wording (a failed check) and validateAgainstSchema. */
const schemaValidation = lazy<SchemaValidation>('@stoplight/prism-http/dist/validator/validators/utils.js');
/** Brings lodash/fp, fp-ts and prism's security validators: needed only by operations with parameters. */
const validation = lazy<Validation>('@stoplight/prism-http/dist/validator/index.js');
/** Brings @stoplight/http-spec (with its postman converter) and the $ref parser: needed only on a cache miss. */
const operations = lazy<Operations>('@stoplight/prism-http/dist/utils/operations.js');
/** Brings faker and json-schema-faker (over a second): needed only by mocked operations. */
const loadMocker = lazy<Mocker>('@stoplight/prism-http/dist/mocker/index.js');
let mockerLoaded = false;
const mocker = (): Mocker => {
  mockerLoaded = true;
  return loadMocker();
};

/** Reads an OpenAPI document (path or object) into prism's operations. */
export const getHttpOperationsFromSpec: Operations['getHttpOperationsFromSpec'] = (...args) => operations().getHttpOperationsFromSpec(...args);

/** prism's own schema check; the reference compileSchemaCheck is tested against. */
export const validateAgainstSchema: SchemaValidation['validateAgainstSchema'] = (...args) => schemaValidation().validateAgainstSchema(...args);

/** Loads prism's error wording ahead of the first request that fails a check (0.1 s of module loading it would wait on). */
export function preloadErrorWording(): void {
  schemaValidation();
}
/** prism's request validation: body, headers, query and path parameters. */
export const validateInput: Validation['validateInput'] = (...args) => validation().validateInput(...args);
/** prism's response validation: declared status, media type, body schema and headers. */
export const validateOutput: Validation['validateOutput'] = (...args) => validation().validateOutput(...args);
/**
 * A body schema compiled once into a plain function, judged exactly as prism's validateAgainstSchema
 * judges it: the same Ajv and ajv-formats copies (resolved from prism-http's own folder), the same
 * options and date-time format, the same error wording (prism's convertAjvErrors). What it leaves
 * out is prism's per-call fp-ts plumbing, which cost ~14 µs a request (profiled under load).
 */
export type SchemaCheck = (value: unknown) => ReturnType<SchemaValidation['convertAjvErrors']> | undefined;

/** Requires a module as prism-http resolves it (its own copies of its dependencies). */
export const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
type AjvModule = typeof import('ajv');
type AjvClass = AjvModule['default'];
type AjvInstance = InstanceType<AjvClass>;
/** Only the draft a document's schemas use is loaded. */
const ajvClasses = {
  default: () => (fromPrism('ajv') as AjvModule).default,
  draft2019_09: () => (fromPrism('ajv/dist/2019') as { default: AjvClass }).default,
  draft2020_12: () => (fromPrism('ajv/dist/2020') as { default: AjvClass }).default,
};
const dateTime =
  require('@stoplight/prism-http/dist/validator/validators/dateTime.js') as typeof import('@stoplight/prism-http/dist/validator/validators/dateTime.js');
const ajvInstances = new Map<string, AjvInstance>();

type Draft = keyof typeof ajvClasses;
/** prism's createAjvInstances options, but for coerceTypes (see ajvFor). */
const AJV_OPTIONS = { allErrors: true, allowUnionTypes: true, allowMatchingProperties: true, strict: false, logger: false } as const;

function draftOf($schema: unknown): Draft {
  const text = String($schema);
  if (/^https?:\/\/json-schema.org\/draft\/2019-09\/schema#?$/.test(text)) return 'draft2019_09';
  return /^https?:\/\/json-schema.org\/draft\/2020-12\/schema#?$/.test(text) ? 'draft2020_12' : 'default';
}

/**
 * As prism's createAjvInstances: without type coercion (what it uses for JSON bodies), or with it
 * (parameters). `source` keeps each validator's code, for standalone code (see standaloneParts):
 * the same options, formats named as a module the standalone code requires.
 */
function ajvFor(draft: Draft, coerceTypes = false, source = false): AjvInstance {
  const key = `${draft}${coerceTypes ? ':coerce' : ''}${source ? ':source' : ''}`;
  let ajv = ajvInstances.get(key);
  if (!ajv) {
    installJsonEqual();
    const Ajv = ajvClasses[draft]();
    // Patterns run in linear time (core/regexp/pattern.ts): a client's long string cannot hold the server.
    const formats = source ? { source: true, formats: (fromPrism('ajv') as AjvModule)._`require(${FORMATS_MODULE})` } : {};
    ajv = new Ajv({ ...AJV_OPTIONS, coerceTypes, code: { regExp: patternEngine, ...formats } });
    (fromPrism('ajv-formats') as { default: (ajv: AjvInstance) => AjvInstance }).default(ajv);
    ajv.addFormat('date-time', dateTime.fmtDef(dateTime.date_time, dateTime.compareDateTime));
    ajvInstances.set(key, ajv);
  }
  return ajv;
}

type Validate = ((data: unknown) => boolean) & { errors?: import('ajv').ErrorObject[] | null | undefined };
const standaloneCode = (ajv: AjvInstance, validate: unknown) =>
  (fromPrism('ajv/dist/standalone') as { default: (ajv: AjvInstance, validate: unknown) => string }).default(ajv, validate);

/** What a validator's code is generated from besides its schema: the set-up and the versions of all that generates it. */
function setupOf(draft: Draft, coerceTypes: boolean): string {
  const version = (name: string) => (fromPrism(`${name}/package.json`) as { version: string }).version;
  // This module's own text too: a build that sets Ajv up differently (a keyword, an option) compiles anew.
  ownDigest ??= createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex');
  return JSON.stringify([draft, coerceTypes, AJV_OPTIONS, FORMATS_SOURCE, version('ajv'), version('ajv-formats'), version('@stoplight/prism-http'), ownDigest]);
}
let ownDigest: string | undefined;

/** Standalone code's require(): the formats as ajvFor adds them, the rest (Ajv's runtime helpers) from prism's copies. */
let standaloneFormats: object | undefined;
function requireForStandalone(specifier: string): unknown {
  installJsonEqual();
  if (specifier === PATTERN_MODULE) return { compilePattern };
  if (specifier !== FORMATS_MODULE) return fromPrism(specifier);
  const full = (fromPrism('ajv-formats/dist/formats') as { fullFormats: object }).fullFormats;
  return (standaloneFormats ??= { ...full, 'date-time': dateTime.fmtDef(dateTime.date_time, dateTime.compareDateTime) });
}

/**
 * `schema` (its `$ref`s into `bundle`) compiled with prism's Ajv set-up, or the same validator read
 * back from the validator cache (core/prism/validator-cache.ts): a warm start loads no Ajv at all.
 * On a miss it is compiled once, by the instance that keeps its code, and the code is stored.
 */
function compileValidator(schema: object, bundle: unknown, coerceTypes: boolean): Validate {
  const draft = draftOf((schema as { readonly $schema?: unknown }).$schema);
  const key = validatorKey(schema, bundle, setupOf(draft, coerceTypes));
  const cached = key === undefined ? undefined : readValidator(key, requireForStandalone);
  if (cached !== undefined) return cached as Validate;
  const ajv = ajvFor(draft, coerceTypes, key !== undefined);
  const validate = ajv.compile({ ...schema, __bundled__: bundle } as Parameters<AjvInstance['compile']>[0]);
  if (key !== undefined) writeValidator(key, () => standaloneCode(ajv, validate));
  return validate;
}

/** prism's ValidationContext (an enum prism-http does not export from a lazy path): messages read "Request body …" or "Response header …". */
const CONTEXT = { request: 0, response: 1 } as const;
const ERROR = SEVERITY.error;

export function compileSchemaCheck(schema: object, bundle: unknown, prefix = 'body', side: keyof typeof CONTEXT = 'request'): SchemaCheck {
  const validate = compileValidator(schema, bundle, false);
  const check: SchemaCheck = (value) => {
    if (validate(value)) return undefined;
    const [first, ...rest] = validate.errors ?? [];
    return first ? schemaValidation().convertAjvErrors([first, ...rest], ERROR, CONTEXT[side], prefix) : undefined;
  };
  validators.set(check, validate);
  return check;
}

/** Each check's validator, for rawErrorsOf. */
const validators = new WeakMap<object, Validate>();

/** An error as Ajv reports it before prism words it: where in the value (a JSON pointer), where in the schema (`#/…`), its keyword's facts. */
export interface RawSchemaError {
  readonly keyword: string;
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** What the steps of a raw error's schema path (its `#/…`, unescaped) lead to in `check`'s schema, whose `$ref`s lead into its bundle. */
export function schemaAtSteps(check: BodyCheck, steps: readonly string[]): unknown {
  const root: unknown = { ...check.schema, __bundled__: check.bundle };
  return steps.reduce<unknown>((schema, step) => (typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)[step] : undefined), root);
}

/** A body check's errors for `value` as Ajv gives them (none when it passes): for a caller that mends a value rather than words its faults. */
export function rawErrorsOf(check: BodyCheck, value: JsonValue): readonly RawSchemaError[] {
  const validate = validators.get(check);
  if (validate === undefined || validate(validationView(value))) return [];
  return validate.errors ?? [];
}

/** The module standalone code requires its formats from: ajv-formats' full set with prism's date-time, as ajvFor adds them. */
const FORMATS_MODULE = 'plantstore:formats';
const FORMATS_SOURCE = `const full = require("ajv-formats/dist/formats").fullFormats;
const prism = require("@stoplight/prism-http/dist/validator/validators/dateTime.js");
module.exports = Object.assign({}, full, { "date-time": prism.fmtDef(prism.date_time, prism.compareDateTime) });
`;

/** What standalone.ts needs to write a check as JavaScript that runs without plantstore: Ajv's module code and where its require()s lead. */
export interface StandaloneParts {
  /** A CommonJS module whose `module.exports` is the validator (Ajv's standaloneCode). */
  readonly code: string;
  /** The file (or, for the formats, the source) a specifier required from `from` (a file; the validator itself when absent) resolves to. */
  resolve(specifier: string, from?: string): { readonly file: string } | { readonly name: string; readonly source: string } | undefined;
}

/**
 * A schema compiled as compileSchemaCheck compiles it (the same Ajv options and formats), as
 * standalone code: a replay judges with exactly the validator the check used.
 */
export function standaloneParts(schema: object, bundle: unknown, coerceTypes = false): StandaloneParts {
  const ajv = ajvFor(draftOf((schema as { readonly $schema?: unknown }).$schema), coerceTypes, true);
  const validate = ajv.compile({ ...schema, __bundled__: bundle } as Parameters<AjvInstance['compile']>[0]);
  const code = standaloneCode(ajv, validate);
  return {
    code,
    resolve(specifier, from) {
      if (specifier === FORMATS_MODULE) return { name: FORMATS_MODULE, source: FORMATS_SOURCE };
      if (specifier === PATTERN_MODULE) return { name: PATTERN_MODULE, source: STANDALONE_PATTERN_SOURCE };
      try {
        return { file: (from === undefined || from === FORMATS_MODULE ? fromPrism : createRequire(from)).resolve(specifier) };
      } catch {
        return undefined;
      }
    },
  };
}

type AcceptsModule = (request: { headers: { accept: string } }) => { type(types: string[]): string | false };
let acceptsModule: AcceptsModule | undefined;
const accepts = () => (acceptsModule ??= fromPrism('accepts') as AcceptsModule);

/**
 * Which of `types` the Accept values prefer, judged by prism's own copy of `accepts` as its mocker
 * judges it (negotiator's findBestHttpContentByMediaType, first step); undefined when none fits.
 */
export function preferredMediaType(acceptValues: readonly string[], types: readonly string[]): string | undefined {
  if (types.length === 0) return undefined;
  const best = accepts()({ headers: { accept: acceptValues.join(',') } }).type([...types]);
  return best === false ? undefined : best;
}

type Option<T> = { readonly _tag: 'None' } | { readonly _tag: 'Some'; readonly value: T };
const writeOnlyFilter = lazy<{ stripWriteOnlyProperties(schema: object): Option<object> }>('@stoplight/prism-http/dist/utils/filterRequiredProperties.js');

/** The document prism bundled with an operation: where the `$ref`s left in its schemas point ("#/__bundled__/…"). Prism's private key is read here only. */
export function bundleOf(operation: object | undefined): unknown {
  return operation === undefined ? undefined : (operation as { readonly __bundled__?: unknown }).__bundled__;
}

/** A document whose root holds the bundle where `$ref`s left in an operation's schemas point ("#/__bundled__/…"). */
export function bundleRootOf(operation: object): Record<string, unknown> {
  return { __bundled__: bundleOf(operation) };
}

/** Which way a body travels: a request's (as sent to the server, or a webhook's payload) or an answer's. */
export type BodyDirection = 'request' | 'response';

/**
 * A body's check: the value as read exactly (bigints allowed), `mayHoldBigints` false when the reader
 * saw none (then no int64 view is made). `schema` is what is judged, as compiled, and `bundle` where
 * its `$ref`s point: a regression file's validator is generated from exactly these (see standalone.ts).
 */
export interface BodyCheck {
  (value: JsonValue, mayHoldBigints?: boolean): SchemaDiagnostics | undefined;
  readonly schema: object;
  readonly bundle: unknown;
}
export type SchemaDiagnostics = NonNullable<ReturnType<SchemaCheck>>;

/**
 * The one recipe for judging a body by its schema, whoever judges: true int64 bounds in the schema
 * and in the operation's bundle (prism's are ±(2^53 − 1)), then for an answer allOf merged and
 * writeOnly properties stripped as prism's validateOutput does (validator/validators/body.js), then
 * compiled once with prism's Ajv. A request's schema is judged as written, as the server always
 * has (prism would also strip readOnly there). Undefined when prism would leave nothing to check.
 */
export function compileBodyCheck(schema: object, operation: object | undefined, direction: BodyDirection, prefix = 'body'): BodyCheck | undefined {
  const bundle = widenedBundle(bundleOf(operation));
  const widened = widenInt64Bounds(schema);
  const judged = direction === 'response' ? forAnswers(widened) : widened;
  if (judged === undefined) return undefined;
  const check = compileSchemaCheck(judged, bundle, prefix, direction);
  const judge = (value: JsonValue, mayHoldBigints = true) => check(mayHoldBigints ? validationView(value) : value);
  const validate = validators.get(check);
  if (validate !== undefined) validators.set(judge, validate);
  judgedBundles.set(judged, bundle);
  return Object.assign(judge, { schema: judged, bundle });
}

/** Each judged schema's bundle, so that a schema handed on as data (a finding's expectation) can be compiled again exactly. */
const judgedBundles = new WeakMap<object, unknown>();

/** The bundle a BodyCheck's `schema` was compiled with (undefined for any other schema). */
export function judgedBundleOf(schema: object): unknown {
  return judgedBundles.get(schema);
}

/** An answer's schema as prism's output validator sees it: allOf merged, writeOnly stripped; undefined when nothing is left. */
function forAnswers(schema: object): object | undefined {
  let merged = schema;
  try {
    const mergeAllOf = fromPrism('@stoplight/json-schema-merge-allof') as (schema: object, options: object) => object;
    merged = mergeAllOf(schema, { deep: true, ignoreAdditionalProperties: true });
  } catch {
    // prism validates the schema as written when it cannot merge it
  }
  const stripped = writeOnlyFilter().stripWriteOnlyProperties(merged);
  return stripped._tag === 'Some' ? stripped.value : undefined;
}

/** Bundles are shared by an operation's schemas: each is widened once. */
const widenedBundles = new WeakMap<object, unknown>();
function widenedBundle(bundle: unknown): unknown {
  if (typeof bundle !== 'object' || bundle === null) return bundle;
  if (!widenedBundles.has(bundle)) widenedBundles.set(bundle, widenInt64Bounds(bundle));
  return widenedBundles.get(bundle);
}

/** prism's mocker: the document's example, or a generated answer. */
export const mock: Mocker['default'] = (options) => mocker().default(options);

/** Whether prism's mocker (faker, json-schema-faker) has been loaded yet: the tests of the example fast path read it. */
export function isMockerLoaded(): boolean {
  return mockerLoaded;
}

/**
 * The mocker's heaviest dependencies, each a separate synchronous load (measured on the CI box:
 * fp-ts ~0.3 s, faker ~0.6 s, json-schema-faker ~0.2 s, the mocker itself the rest), in the order
 * the mocker would load them.
 */
const MOCKER_PARTS = ['fp-ts', '@faker-js/faker', 'json-schema-faker'] as const;

/**
 * Loads the mocker ahead of the first request that needs it (any operation may be asked a Prefer),
 * a part per turn of the event loop: a request arriving meanwhile waits for one part at most,
 * never for the whole second and a half that loading it at once takes.
 */
export async function preloadMocker(idle: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<void> {
  for (const part of MOCKER_PARTS) {
    await idle();
    try {
      fromPrism(part);
    } catch {
      // Not where expected (another prism version): the mocker loads it itself below.
    }
  }
  await idle();
  mocker();
}

/** Where a parameter is read from, as prism's validateInput names it in its messages ("Request query parameter …"). */
export type ParameterLocation = 'header' | 'query' | 'path';
type Deserializers = typeof import('@stoplight/prism-http/dist/validator/deserializers/index.js');
type Deserializer = (name: string, parameters: Record<string, unknown>, schema: unknown, explode: boolean) => unknown;
/** prism's own readers of each parameter style (form, simple, deepObject, delimited, label, matrix): no copy of their rules here. */
const deserializers = lazy<Deserializers>('@stoplight/prism-http/dist/validator/deserializers/index.js');
const DEFAULT_STYLE: Record<ParameterLocation, string> = { header: 'simple', query: 'form', path: 'simple' };
export type ParameterDiagnostics = ReturnType<SchemaValidation['convertAjvErrors']>;
/** The check of one location's parameters; undefined when they are all accepted. */
export type ParameterCheck = ((target: Readonly<Record<string, unknown>>) => ParameterDiagnostics | undefined) & {
  /** The object schema judged (names lower-cased, required listed), for standalone code; absent when nothing is declared. */
  readonly schema?: object;
};

/**
 * One location's parameters compiled once, judged exactly as prism's validateParams judges them per
 * request (validator/validators/params.js): the same object schema (createJsonSchemaFromParams: names
 * lowercased, required list), prism's own deserializers, an Ajv that coerces text to the schema's
 * type, prism's wording, and its refusal of a deprecated parameter that is present. What it leaves out
 * is the per-request lodash/fp-ts plumbing (~60 µs a request, profiled under load).
 */
export function compileParameterCheck(
  specs: readonly IHttpParam[],
  location: ParameterLocation,
  bundle: unknown,
  side: 'request' | 'response' = 'request',
): ParameterCheck {
  if (specs.length === 0) return () => undefined;
  const byName = new Map<string, IHttpParam>();
  for (const spec of specs) byName.set(spec.name.toLowerCase(), spec);
  const properties: Record<string, unknown> = {};
  for (const [name, spec] of byName) if (spec.schema) properties[name] = spec.schema;
  const schema = { type: 'object', properties, required: specs.flatMap((spec) => (spec.required ? [spec.name.toLowerCase()] : [])) };
  const validate = compileValidator(schema, bundle, true);
  judgedBundles.set(schema, bundle);
  const readers = [...byName].map(([name, spec]) => {
    const style = spec.style ?? DEFAULT_STYLE[location];
    const read = (deserializers()[location] as Record<string, Deserializer | undefined>)[style];
    // Every style but a query's deepObject and exploded form object reads the parameter's own value
    // only; prism's simple reader throws on an absent array or object (Eclipse Ditto's optional
    // put-metadata header made every PUT a 500), so an absent one is not read at all.
    const object = (properties[name] as { type?: unknown } | undefined)?.type === 'object';
    const explode = spec.explode ?? false;
    const ownValueOnly = location !== 'query' || !(style === 'deepObject' || (object && explode));
    return { name, read, schema: properties[name], explode, ownValueOnly };
  });
  const deprecated = specs.filter((spec) => spec.deprecated === true);
  const Prefix = location[0]!.toUpperCase() + location.slice(1);
  const check = (target: Readonly<Record<string, unknown>>): ParameterDiagnostics | undefined => {
    const lowered: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // "__proto__" is a name like any other, as in lodash mapKeys
    for (const key of Object.keys(target)) lowered[key.toLowerCase()] = target[key];
    const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const { name, read, schema: own, explode, ownValueOnly } of readers) {
      if (ownValueOnly && lowered[name] === undefined) continue;
      const value = read?.(name, lowered, own, explode);
      if (value) values[name] = value; // lodash pickBy: prism drops every falsy value ('' included)
    }
    const [first, ...rest] = validate(values) ? [] : (validate.errors ?? []);
    const diagnostics = first ? [...schemaValidation().convertAjvErrors([first, ...rest], ERROR, CONTEXT[side], location)] : [];
    for (const spec of deprecated) {
      if (target[spec.name]) {
        diagnostics.push({
          path: [location, spec.name],
          code: 'deprecated',
          message: `${Prefix} param ${spec.name} is deprecated`,
          severity: SEVERITY.warning,
        });
      }
    }
    const [head, ...tail] = diagnostics;
    return head ? [head, ...tail] : undefined;
  };
  return Object.assign(check, { schema });
}

type UriTemplateModule = { URI: { Template: new (template: string) => { match(path: string): Record<string, string> | null } } };

/** The path's parameters as prism's validateInput reads them (uri-template-lite's match of the operation's path template), the template parsed once. */
export function compilePathParameters(template: string): (path: string) => Record<string, string> {
  const compiled = new (fromPrism('uri-template-lite') as UriTemplateModule).URI.Template(template);
  return (path) => compiled.match(path) ?? {};
}
