import type { Failure } from '../core/errors.js';
import type { ContractViolation } from '../journal/journal.js';

/** A successful answer, already serialised. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, or bytes that must reach the client exactly (a proxied answer, which may be binary). */
  readonly body: string | Buffer;
  /**
   * An answer that goes on being written after its head (server-sent events): `body` is sent
   * first, then `stream` is handed the connection to write to until it ends it or the client leaves.
   */
  readonly stream?: (sink: StreamSink) => void;
}

/** Where a streamed answer writes. */
export interface StreamSink {
  /** Sends `text` now; false once the client has gone. */
  write(text: string): boolean;
  end(): void;
  /** Called once, when the client goes or the answer ends. */
  onClose(listener: () => void): void;
}

/** What a handler (or any stage) decides: an answer, or a refusal the responder words as an Error. */
export type Outcome = ({ readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly failure: Failure }) & {
  /** Proxy mode: where the request or the real answer departs from the document, for the journal. */
  readonly violations?: readonly ContractViolation[];
};

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
