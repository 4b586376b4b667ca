import type { LoadedDocument } from '../core/openapi/load-document.js';
import type { Faults } from '../faults/faults.js';
import type { HandlerContext } from '../http/binding.js';
import type { Outcome } from '../http/answer.js';
import type { Resource, ResourceModel } from '../core/resources/model.js';
import type { Journal } from '../journal/journal.js';
import type { JournalStreams } from './journal-events.js';
import type { ResourceStores } from '../store/item-store.js';
import type { WebhookSender } from '../webhooks/sender.js';
import type { SharedDeliveries } from '../webhooks/shared-deliveries.js';

/** serve --watch: the last reload's outcome, as health shows it. */
export interface ReloadStatus {
  /** When the reload finished (ISO 8601). */
  readonly at: string;
  readonly ok: boolean;
  /** Why the new document was not taken; only when !ok. */
  readonly error?: string;
}

/** What the control API works on: the stand-in's live state, shared with the API it controls. */
export interface ControlContext {
  readonly stores: ResourceStores;
  /** The first thing wrong with a seeded item (at key path `at`), checked by its resource's schema; undefined when it fits. */
  readonly checkItem: (resource: Resource, value: unknown, at: string) => string | undefined;
  readonly journal: Journal;
  readonly faults: Faults;
  /** The served API document, for health and to check the operation a fault names. */
  readonly api: LoadedDocument;
  /** The resources inferred from `api` at start (GET /__control/resources), whose items `/__control/resources/{resource}/items` names. */
  readonly resources: ResourceModel;
  /** With a token, only it opens the control API; without, the control API is open. */
  readonly adminToken: string | undefined;
  readonly isolateByToken: boolean;
  /** Date.now() at start. */
  readonly startedAt: number;
  /** With serve --watch: the last reload's outcome (undefined before the first), shown by health. */
  readonly reload?: () => ReloadStatus | undefined;
  /** With serve --watch: what is watched ('document', 'config', 'seed data'), never paths; undefined without. */
  readonly watching?: () => readonly string[] | undefined;
  /** The open journal streams (the inspector's live view); the server ends them when it closes. */
  readonly journalStreams?: JournalStreams;
  /** With --webhook: where the document's webhooks go, which ones, and their deliveries (with --store redis://…, every replica's: `shared`). */
  readonly webhooks?:
    { readonly url: string; readonly names: readonly string[]; readonly sender: WebhookSender; readonly shared?: SharedDeliveries | undefined } | undefined;
}

/** One control operation: the validated request in, the answer out. */
export type ControlHandler = (request: HandlerContext, control: ControlContext) => Outcome | Promise<Outcome>;
