/** The run's defaults, in a module of their own so that `plantstore verify --help` loads nothing heavy. */
export const DEFAULTS = {
  runs: 200,
  timeoutMs: 5_000,
  concurrency: 16,
} as const;
