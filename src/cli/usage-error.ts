import { PlantstoreError } from '../core/errors.js';

/** A command line that cannot be run as given; the CLI prints it and exits 2. */
export class UsageError extends PlantstoreError {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super('usage', message);
  }
}
