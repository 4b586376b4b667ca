/** A command line that cannot be run as given; the CLI prints it and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
