import type { LoadedDocument } from '../core/openapi/load-document.js';
import type { Faults } from '../faults/faults.js';
import type { HandlerContext } from '../handlers/binding.js';
import type { Outcome } from '../handlers/outcome.js';
import type { Journal } from '../journal/journal.js';
import type { PlantStores } from '../store/tenants.js';
import type { WebhookSender } from '../webhooks/sender.js';

/** What the control API works on: the stand-in's live state, shared with the API it controls. */
export interface ControlContext {
  readonly stores: PlantStores;
  readonly journal: Journal;
  readonly faults: Faults;
  /** The served API document, for health and to check the operation a fault names. */
  readonly api: LoadedDocument;
  /** With a token, only it opens the control API; without, the control API is open. */
  readonly adminToken: string | undefined;
  readonly isolateByToken: boolean;
  /** Date.now() at start. */
  readonly startedAt: number;
  /** With --webhook: where the document's webhooks go, which ones, and their deliveries. */
  readonly webhooks?: { readonly url: string; readonly names: readonly string[]; readonly sender: WebhookSender } | undefined;
}

/** One control operation: the validated request in, the answer out. */
export type ControlHandler = (request: HandlerContext, control: ControlContext) => Outcome | Promise<Outcome>;
