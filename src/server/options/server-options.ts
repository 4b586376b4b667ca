import type { FaultSpec } from '../../faults/faults.js';
import type { Plant } from '../../store/plant-store.js';
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ResourceModel, ResourceOverride } from '../../core/resources/model.js';
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
  /**
   * Items of other resources the (shared) store starts with, by resource name ({pets: [{…}]}):
   * each checked by its resource's schema at start (an unknown name or a bad item fails the start).
   */
  readonly seedItems?: Readonly<Record<string, readonly JsonValue[]>>;
  /** The resources to keep state for, instead of the model inferred from the document (overrides do not apply then; the sign-in is still the document's). */
  readonly resourceModel?: ResourceModel;
  /** Faults active from the start. */
  readonly faults?: readonly FaultSpec[];
  /** Overrides of resource inference, keyed by collection path ('/pets'); they win over the document's x-plantstore. */
  readonly resources?: Readonly<Record<string, ResourceOverride>>;
  /** Where log lines go; default stdout. */
  readonly log?: (line: string) => void;
  /**
   * With `watch`: the files the options were read from (config, seed data) and how to read them
   * again (the CLI's precedence: flags > environment > config). A change to one reloads them with
   * the document; without it only the document is watched.
   */
  readonly optionSources?: OptionSources;
};

/** Where the options came from, for `watch`. */
export interface OptionSources {
  /** Each file and what it is ('config', 'seed data'), in the words the log and banner use. */
  readonly files: readonly { readonly what: string; readonly path: string }[];
  /** The options read again from the same flags, environment and files; throws (ConfigError) when a file is broken. */
  read(): Promise<ServerOptions>;
}
