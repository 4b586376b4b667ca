import { randomUUID } from 'node:crypto';
import { PlantstoreError } from '../core/errors.js';

/**
 * Faults make the stand-in misbehave on purpose so a client's resilience can be tested:
 * - latency:   answer after a fixed delay, or a random one between latencyMs and latencyMaxMs;
 * - status:    answer with this status and an Error body, touching no store;
 * - reset:     reset the connection (TCP RST) without answering;
 * - empty:     close the connection without sending a byte;
 * - slow-body: send the real answer, its body dripped over bodyDurationMs.
 */
export const FAULT_KINDS = ['latency', 'status', 'reset', 'empty', 'slow-body'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  readonly kind: FaultKind;
  /** Only this operation (operationId); all operations when absent. */
  readonly operation?: string;
  /** Only the next N matching requests; then the fault removes itself. */
  readonly times?: number;
  /** Only this percentage (0–100) of matching requests, at random. */
  readonly percentage?: number;
  readonly latencyMs?: number;
  readonly latencyMaxMs?: number;
  readonly status?: number;
  /** The Error body's `error` code for a status fault; the status itself by default. */
  readonly error?: number;
  readonly message?: string;
  /** Headers a status fault's answer carries, e.g. {"Retry-After": "5"}. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly bodyDurationMs?: number;
}

export interface Fault extends FaultSpec {
  readonly id: string;
  /** Requests it has shaped so far. */
  readonly hits: number;
}

/** What the faults decide for one request: a delay first, then at most one way to answer. */
export interface FaultPlan {
  readonly delayMs: number;
  /** Absent or undefined: answer as usual. */
  readonly outcome?: Fault | undefined;
  /** Names of the faults applied, for the journal. */
  readonly applied: readonly string[];
}

export interface Faults {
  /** Adds a fault; throws FaultError when the spec does not make sense. */
  add(spec: FaultSpec): Fault;
  list(): Fault[];
  remove(id: string): boolean;
  clear(): void;
  /** Decides for one request of `operation`, using up `times` of the faults that apply. */
  plan(operation: string, random?: () => number): FaultPlan;
  /** Faults kept in a store that several replicas share (serve --store redis://…); absent: this process only. */
  readonly shared?: SharedFaultOps;
}

/** What a shared registry adds: a plan that counts `times` over every replica, and a way to catch up. */
export interface SharedFaultOps {
  /** As `plan`, but using up `times` atomically in the shared store; synchronous when no fault is in force. */
  plan(operation: string, random?: () => number): FaultPlan | Promise<FaultPlan>;
  /** Resolves once this registry's changes are in the shared store and it holds every replica's; rejects when the store is unreachable. */
  synced(): Promise<void>;
}

export class FaultError extends PlantstoreError {
  override readonly name = 'FaultError';

  constructor(message: string) {
    super('fault', message);
  }
}

export const NONE: FaultPlan = Object.freeze({ delayMs: 0, applied: Object.freeze([]) });

/**
 * The faults in force. `operations` are the names a fault may target; a misspelt one would match
 * no request and look like a fault that does not work, so it is refused.
 */
export function createFaults(initial: readonly FaultSpec[] = [], operations?: readonly string[]): Faults {
  let faults: Array<FaultSpec & { id: string; hits: number; remaining: number | undefined }> = [];

  const registry: Faults = {
    add(spec) {
      checkFaultSpec(spec);
      if (operations !== undefined && spec.operation !== undefined && !operations.includes(spec.operation)) {
        throw new FaultError(`operation must name an operation of the document (${operations.join(', ')}), not "${spec.operation}"`);
      }
      const fault = { ...spec, id: randomUUID(), hits: 0, remaining: spec.times };
      faults.push(fault);
      return publicView(fault);
    },
    list: () => faults.map(publicView),
    remove(id) {
      const before = faults.length;
      faults = faults.filter((fault) => fault.id !== id);
      return faults.length < before;
    },
    clear() {
      faults = [];
    },
    plan(operation, random = Math.random) {
      if (faults.length === 0) return NONE;
      let delayMs = 0;
      let outcome: Fault | undefined;
      const applied: string[] = [];
      for (const fault of faults) {
        if (fault.operation !== undefined && fault.operation !== operation) continue;
        if (fault.kind !== 'latency' && outcome !== undefined) continue;
        if (fault.percentage !== undefined && random() * 100 >= fault.percentage) continue;
        fault.hits += 1;
        if (fault.remaining !== undefined) fault.remaining -= 1;
        applied.push(fault.kind);
        if (fault.kind === 'latency') delayMs += latencyOf(fault, random);
        else outcome = publicView(fault);
      }
      faults = faults.filter((fault) => fault.remaining === undefined || fault.remaining > 0);
      return applied.length === 0 ? NONE : { delayMs, applied, outcome };
    },
  };
  initial.forEach((spec, index) => {
    try {
      registry.add(spec);
    } catch (error) {
      throw error instanceof FaultError ? new FaultError(`faults[${index}]: ${error.message}`) : error;
    }
  });
  return registry;
}

export function latencyOf(fault: FaultSpec, random: () => number): number {
  const min = fault.latencyMs ?? 0;
  const max = fault.latencyMaxMs ?? min;
  return min + random() * (max - min);
}

function publicView(fault: FaultSpec & { id: string; hits: number; remaining: number | undefined }): Fault {
  const { remaining, ...rest } = fault;
  return remaining === undefined ? { ...rest } : { ...rest, times: remaining };
}

/** A fault that cannot be applied is refused with a message naming the field. */
export function checkFaultSpec(spec: FaultSpec): void {
  if (!(FAULT_KINDS as readonly string[]).includes(spec.kind))
    throw new FaultError(`kind must be one of ${FAULT_KINDS.join(', ')}, not "${String(spec.kind)}"`);
  const whole = (name: keyof FaultSpec, min: number, max: number) => {
    const value = spec[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)) {
      throw new FaultError(`${name} must be a whole number from ${min} to ${max}`);
    }
  };
  whole('times', 1, Number.MAX_SAFE_INTEGER);
  whole('latencyMs', 0, 600_000);
  whole('latencyMaxMs', 0, 600_000);
  whole('bodyDurationMs', 0, 600_000);
  whole('error', -(2 ** 31), 2 ** 31 - 1);
  if (spec.percentage !== undefined && !(typeof spec.percentage === 'number' && spec.percentage >= 0 && spec.percentage <= 100)) {
    throw new FaultError('percentage must be a number from 0 to 100');
  }
  if (spec.kind === 'latency' && spec.latencyMs === undefined) throw new FaultError('a latency fault needs latencyMs');
  if (spec.latencyMaxMs !== undefined && spec.latencyMaxMs < (spec.latencyMs ?? 0)) throw new FaultError('latencyMaxMs must not be below latencyMs');
  if (spec.kind === 'status') {
    // 1xx are interim answers: a client would go on waiting for the real one.
    if (spec.status === undefined || !Number.isInteger(spec.status) || spec.status < 200 || spec.status > 599)
      throw new FaultError('a status fault needs status, from 200 to 599');
  }
  if (spec.kind === 'slow-body' && spec.bodyDurationMs === undefined) throw new FaultError('a slow-body fault needs bodyDurationMs');
  if (spec.headers !== undefined) checkFaultHeaders(spec);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 field-value: visible characters, spaces and tabs inside; no CR, LF or other controls. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** The server frames the answer and runs the connection (RFC 9110 §7.6.1): these are not a fault's to set. */
const SERVER_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);

function checkFaultHeaders(spec: FaultSpec): void {
  const { headers } = spec;
  if (spec.kind !== 'status') throw new FaultError('headers go with a status fault only');
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw new FaultError('headers must be an object of names to text values');
  const entries = Object.entries(headers);
  if (entries.length > 20) throw new FaultError('headers may name at most 20 headers');
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) throw new FaultError(`headers: "${name.slice(0, 60)}" is not a header name (letters, digits and !#$%&'*+.^_\`|~-)`);
    if (SERVER_HEADERS.has(name.toLowerCase())) throw new FaultError(`headers: ${name} is the server's to set, not a fault's`);
    if (typeof value !== 'string' || value.length > 1000 || !HEADER_VALUE.test(value) || value !== value.trim()) {
      throw new FaultError(`headers: the value of ${name} must be text of at most 1000 characters without control characters or surrounding spaces`);
    }
  }
}
