import type { FaultSpec } from '../../faults/faults.js';
import type { Plant } from '../../store/plant-store.js';
import type { ResourceOverride } from '../../core/resources/model.js';
import type { ServeOptionValues } from './table.js';

/**
 * startServer's options: those of the serve option table (src/server/options/table.ts, where each
 * is described and given its default and range), in code with a parsed document allowed as `spec`,
 * seed plants and faults as data, and a log sink. For code logLevel defaults to 'silent'.
 */
export type ServerOptions = Omit<ServeOptionValues, 'spec' | 'seed' | 'faults' | 'resources' | 'config' | 'help'> & {
  /** OpenAPI document: a file path (YAML or JSON) or a parsed object. Default: the bundled Plant Store. */
  readonly spec?: string | object;
  /** Plants the (shared) store starts with. */
  readonly seed?: readonly Plant[];
  /** Faults active from the start. */
  readonly faults?: readonly FaultSpec[];
  /** Overrides of resource inference, keyed by collection path ('/pets'); they win over the document's x-plantstore. */
  readonly resources?: Readonly<Record<string, ResourceOverride>>;
  /** Where log lines go; default stdout. */
  readonly log?: (line: string) => void;
};
