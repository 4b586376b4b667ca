import type { Failure } from '../core/errors.js';

/** A successful answer, already serialised. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a handler (or any stage) decides: an answer, or a refusal the responder words as an Error. */
export type Outcome = { readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly failure: Failure };

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
