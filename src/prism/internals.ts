import { createRequire } from 'node:module';

/**
 * prism-http's validator and mocker are not exported from its package root, only from its CommonJS
 * dist/ files. A default `import` of those binds differently under Node (module.exports) and under
 * vitest's transform (module.exports.default), so they are loaded here with require, which gives
 * module.exports everywhere, and typed from prism's own declarations.
 */
const require = createRequire(import.meta.url);

type SchemaValidation = typeof import('@stoplight/prism-http/dist/validator/validators/utils.js');
type Validation = typeof import('@stoplight/prism-http/dist/validator/index.js');
type Mocker = typeof import('@stoplight/prism-http/dist/mocker/index.js');
type Operations = typeof import('@stoplight/prism-http/dist/utils/operations.js');

const schemaValidation = require('@stoplight/prism-http/dist/validator/validators/utils.js') as SchemaValidation;
const validation = require('@stoplight/prism-http/dist/validator/index.js') as Validation;
const operations = require('@stoplight/prism-http/dist/utils/operations.js') as Operations;
/** The mocker brings faker and json-schema-faker (over a second of start-up): loaded when first needed. */
let mocker: Mocker | undefined;
const loadMocker = (): Mocker => (mocker ??= require('@stoplight/prism-http/dist/mocker/index.js') as Mocker);

/** Reads an OpenAPI document (path or object) into prism's operations. */
export const getHttpOperationsFromSpec = operations.getHttpOperationsFromSpec;

/** Validates a value against a JSON schema with prism's Ajv instances (compiled once per schema). */
export const validateAgainstSchema = schemaValidation.validateAgainstSchema;
/** prism's request validation: body, headers, query and path parameters. */
export const validateInput = validation.validateInput;
/** prism's response validation: declared status, media type, body schema and headers. */
export const validateOutput = validation.validateOutput;
/** prism's mocker: the document's example, or a generated answer. */
export const mock: Mocker['default'] = (options) => loadMocker().default(options);

/** Loads the mocker ahead of the first request that needs it. */
export function preloadMocker(): void {
  loadMocker();
}
