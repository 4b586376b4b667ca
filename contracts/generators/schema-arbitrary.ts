/**
 * JSON Schema → fast-check, and the facts about a schema the suite needs: the entry callers import.
 * Laid out along fast-check's seams:
 *   schema/       reading a schema: types, $ref/allOf flattening, folding into a Shape, the facts, int formats
 *   arbitraries/  one builder per JSON type, and the dispatch between them (from-schema.ts)
 *   edges.ts      the edge values generation leans on
 *   _internals/   machinery: bigint maths, the probed filter, the context builders share
 */
export { arbitraryFromSchema, type SchemaArbitraryOptions } from './arbitraries/from-schema.js';
export { EDGE_STRINGS } from './edges.js';
export { describeSchema, type SchemaFacts } from './schema/facts.js';
export { INT32, INT64 } from './schema/integer-formats.js';
export { withoutPrismInt64Bounds } from '../../src/core/prism/int64-bounds.js';
export { SchemaError, type JsonSchema, type JsonSchemaDefinition, type SchemaType } from './schema/json-schema.js';
export { codePointLength } from './schema/satisfies.js';
export type { NumericBound } from './schema/shape.js';
