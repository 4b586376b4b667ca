import type { Readable } from 'node:stream';
import type { Failure } from '../core/errors.js';
import type { ContractViolation } from '../journal/journal.js';

/** A successful answer, already serialised. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, or bytes that must reach the client exactly (a proxied answer, which may be binary). */
  readonly body: string | Buffer;
  /**
   * More of the body, after `body`, read as the client takes it (a proxied answer too large to hold):
   * piped with backpressure; if it fails, the connection is closed so the client sees a cut answer.
   * No Content-Length is written unless `headers` has one.
   */
  readonly rest?: Readable;
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
  /** Bytes written and not yet taken by the client (held in the process; the kernel's buffers aside). */
  queued(): number;
  end(): void;
  /** Closes the connection at once, whatever is still queued (a reader that never reads). */
  destroy(): void;
  /** Called once, when the client goes or the answer ends. */
  onClose(listener: () => void): void;
}

/** What a handler (or any stage) decides: an answer, or a refusal the responder words as an Error. */
export type Outcome = ({ readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly failure: Failure }) & {
  /** Proxy mode: where the request or the real answer departs from the document, for the journal. */
  readonly violations?: readonly ContractViolation[];
};

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
