/** `plantstore serve` options from their sources, with one precedence: flag > environment > config file > default. */
import { readFlags, resolveOptions, type FlagValues } from '../../core/options.js';
import type { ServerOptions } from './server-options.js';
import type { ServeConfig } from './config-file.js';
import { SERVE_OPTIONS } from './table.js';

export { SERVE_HELP, SERVE_OPTIONS } from './table.js';

/** The command line read against the table; parseArgs' TypeError names an unknown flag or a missing value. */
export function readServeFlags(argv: readonly string[]): FlagValues {
  return readFlags(SERVE_OPTIONS, argv).values;
}

/**
 * The server's options. `fail` raises a refusal naming the flag or variable at fault (the CLI's
 * UsageError); config values were checked when the file was read.
 */
export function resolveServeOptions(
  flags: FlagValues,
  environment: Readonly<Record<string, string | undefined>>,
  config: ServeConfig,
  fail: (message: string) => never,
): ServerOptions {
  const {
    config: _file,
    help: _help,
    seed: _seed,
    faults: _faults,
    resources: _resources,
    ...values
  } = resolveOptions(SERVE_OPTIONS, { flags, env: environment, config }, { fail });
  const { bodyLimitBytes = SERVE_OPTIONS.bodyLimitBytes.default, bodyBufferBytes } = values;
  if (bodyBufferBytes !== undefined && bodyBufferBytes < bodyLimitBytes) {
    fail(`--body-buffer-bytes (${bodyBufferBytes}) must be at least --body-limit (${bodyLimitBytes}), or no body the limit allows could be received`);
  }
  return {
    ...values,
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
    ...(config.seedItems !== undefined ? { seedItems: config.seedItems } : {}),
    ...(config.faults !== undefined ? { faults: config.faults } : {}),
    ...(config.resources !== undefined ? { resources: config.resources } : {}),
  };
}
