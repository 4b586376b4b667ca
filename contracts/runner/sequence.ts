/**
 * What the two stateful sequences (model.ts: creates against a set of ids; lifecycle/: a resource's
 * whole life) share: the real side they send through, recording each step, and ending a sequence
 * at the first step its model can no longer follow.
 *
 * A sequence is a plain array of fast-check commands run by fc.asyncModelRun (a command whose
 * `check` fails on the model is skipped), not fc.commands: fc.commands shrinks by which commands
 * ran, a fact a replay from seed and path does not have, so its shrunk path could not be replayed.
 * An array (and `droppable` below) shrinks from the value alone: `--seed S --replay <property>:<path>`
 * sends the very steps the finding printed.
 */
import fc from 'fast-check';
import type { Operation } from '../../src/core/openapi/load-document.js';
import { PlantstoreError } from '../../src/core/errors.js';
import type { Exchange } from '../checks/index.js';
import type { SentRequest } from '../report.js';
import type { RunEnv } from './send.js';

/** The real side of a sequence: where it sends, and what it sent so far (each step's `before`). */
export interface SequenceReal {
  readonly env: RunEnv;
  readonly exchanges: Exchange[];
  readonly sent: SentRequest[];
  step: number;
}

/** Thrown to end a sequence early; not a failure in itself (the exchanges carry the verdicts). */
export class SequenceEnded extends PlantstoreError {
  override readonly name = 'SequenceEnded';

  constructor(message: string) {
    super('sequenceEnded', message);
  }
}

export function newReal(env: RunEnv): SequenceReal {
  return { env, exchanges: [], sent: [], step: 0 };
}

/** Keeps the step's exchanges (placed at `operation` when it is not the plan's own); the first one. */
export function record(real: SequenceReal, exchanges: readonly Exchange[], operation?: Operation): Exchange | undefined {
  const placed = operation === undefined ? exchanges : exchanges.map((e) => ({ ...e, operation }));
  real.exchanges.push(...placed);
  real.sent.push(...placed.map((e) => e.request));
  return placed[0];
}

/** Ends the sequence when the step got no answer or a 5xx: the target's state is unknown from here on. */
export function endIfBroken(exchange: Exchange | undefined): asserts exchange is Exchange {
  if (exchange === undefined) throw new SequenceEnded('the request could not be sent');
  const status = exchange.response.status;
  if (status === undefined || status >= 500) throw new SequenceEnded('the target failed; its state is unknown');
}

/** Runs the parts of a sequence one after the other on one model; a SequenceEnded stops it quietly. */
export async function runSequence<Model extends object, Real extends SequenceReal>(
  model: Model,
  real: Real,
  parts: ReadonlyArray<Iterable<fc.AsyncCommand<Model, Real>> | ((model: Model) => Iterable<fc.AsyncCommand<Model, Real>>)>,
): Promise<Exchange[]> {
  try {
    for (const part of parts) await fc.asyncModelRun(() => ({ model, real }), typeof part === 'function' ? part(model) : part);
  } catch (error) {
    if (!(error instanceof SequenceEnded)) throw error;
  }
  return real.exchanges;
}

/**
 * An array that is generated whole and shrinks by dropping elements, the last first: a walk that
 * must run every step by default, yet shrinks to the few a finding needs. Shrinking reads the
 * value only, so a path replays it exactly.
 */
export function droppable<T>(whole: readonly T[]): fc.Arbitrary<readonly T[]> {
  return new Droppable(whole);
}

class Droppable<T> extends fc.Arbitrary<readonly T[]> {
  constructor(private readonly whole: readonly T[]) {
    super();
  }

  generate(): fc.Value<readonly T[]> {
    return new fc.Value(this.whole, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is readonly T[] {
    return Array.isArray(value) && value.every((item) => this.whole.includes(item as T));
  }

  shrink(value: readonly T[]): fc.Stream<fc.Value<readonly T[]>> {
    const drops = value.map((_, i) => value.length - 1 - i);
    return fc.Stream.of(
      ...drops.map(
        (drop) =>
          new fc.Value(
            value.filter((_, i) => i !== drop),
            undefined,
          ),
      ),
    );
  }
}
