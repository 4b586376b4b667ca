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

const schemaValidation = require('@stoplight/prism-http/dist/validator/validators/utils.js') as SchemaValidation;
const validation = require('@stoplight/prism-http/dist/validator/index.js') as Validation;
const mocker = require('@stoplight/prism-http/dist/mocker/index.js') as Mocker;

/** Validates a value against a JSON schema with prism's Ajv instances (compiled once per schema). */
export const validateAgainstSchema = schemaValidation.validateAgainstSchema;
/** prism's request validation: body, headers, query and path parameters. */
export const validateInput = validation.validateInput;
/** prism's response validation: declared status, media type, body schema and headers. */
export const validateOutput = validation.validateOutput;
/** prism's mocker: the document's example, or a generated answer. */
export const mock = mocker.default;
