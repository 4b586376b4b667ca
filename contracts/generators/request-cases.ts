/**
 * Labelled HTTP request cases for one operation: valid ones a conforming server must accept, and
 * invalid ones, each breaking exactly one thing (a body property, the JSON syntax, the content type
 * or the credentials) that a conforming server must refuse. The entry callers import; the families
 * live in request-cases/, one file per kind of breakage.
 */
export { DEFAULT_TOKEN, type CaseContext, type CaseFamily, type RequestCase } from './request-cases/types.js';
export { jsonRequestBody } from '../../src/core/openapi/operation.js';
export { validCases } from './request-cases/valid.js';
export { invalidCaseFamilies, invalidCases } from './request-cases/invalid.js';
export { INT64, INT32 } from './schema-arbitrary.js';
