/**
 * What the runner needs from the generators, stated structurally so that the runner can be
 * driven by contracts/generators in use and by small hand-made sources in tests.
 */
import type fc from 'fast-check';
import type { Operation } from '../../src/document/load-document.js';
import type { JsonValue } from '../generators/json-value.js';

export interface RequestCase {
  readonly kind: 'valid' | 'invalid';
  /** For invalid cases: the rule the request breaks, in words. */
  readonly breaks?: string;
  readonly target: 'body' | 'content-type' | 'auth';
  readonly method: string;
  /** The operation's path, e.g. "/plants" (the target's base path is put in front). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body text. */
  readonly body?: string;
  /** The body as a JSON value, when it is JSON. */
  readonly payload?: JsonValue;
}

export interface CaseContext {
  readonly token?: string;
  readonly tokensValidated?: boolean;
  readonly extraProperties?: boolean;
}

/** One kind of invalid request (e.g. "body: missing required property 'id'"). */
export interface CaseFamily {
  readonly breaks: string;
  readonly target: RequestCase['target'];
  readonly arbitrary: fc.Arbitrary<RequestCase>;
}

export interface CaseSource {
  validCases(operation: Operation, context: CaseContext): fc.Arbitrary<RequestCase>;
  invalidCases(operation: Operation, context: CaseContext): fc.Arbitrary<RequestCase>;
  /** When given, every one of these valid requests is sent on every run (the values that break implementations). */
  boundaryCases?(operation: Operation, context: CaseContext): readonly RequestCase[];
  /** When given, each family becomes a property of its own, so that every kind of invalid request is sent. */
  invalidCaseFamilies?(operation: Operation, context: CaseContext): readonly CaseFamily[];
}
