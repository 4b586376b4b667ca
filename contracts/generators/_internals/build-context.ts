import type { Arbitrary } from 'fast-check';
import type { JsonValue } from '../json-value.js';
import type { JsonSchemaDefinition } from '../schema/json-schema.js';

/** What every builder of a nested value needs: the options, and a way back to the dispatch for children. */
export interface BuildContext {
  /** The document `$ref: '#/...'` pointers resolve against. */
  readonly root: object | undefined;
  readonly extraProperties: boolean;
  readonly maxDepth: number;
  /**
   * The arbitrary of a value for which every schema in `defs` holds, at nesting `depth`. Passed in
   * rather than imported, so the array and object builders do not import the dispatch that imports them.
   */
  readonly build: (defs: readonly JsonSchemaDefinition[], depth: number) => Arbitrary<JsonValue>;
}
