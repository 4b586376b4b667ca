/**
 * Set-up: what must hold before the first case is sent (a usable document with something to
 * verify, a usable URL, a target that answers), each failure explained as a SetupError.
 */
import { DocumentError, loadDocument, type LoadedDocument, type Operation } from '../../src/core/openapi/load-document.js';
import { createClient, urlOn, type HttpClient } from '../client/http-client.js';
import type { VerifyOptions } from '../report.js';
import type { Secret } from '../client/secrets.js';
import { PlantstoreError } from '../../src/core/errors.js';

/** The run could not start: bad options, an unusable document, an unreachable target. The CLI exits 2. */
export class SetupError extends PlantstoreError {
  override readonly name = 'SetupError';

  constructor(message: string) {
    super('setup', message);
  }
}

/** The document, or undefined where `signal` halted the run while it was read (a SIGTERM during DigitalOcean's seconds of reading). */
export async function loadOrExplain(spec: VerifyOptions['spec'], signal?: AbortSignal): Promise<LoadedDocument | undefined> {
  try {
    return await loadDocument(spec, signal);
  } catch (error) {
    if (signal?.aborted === true) return undefined;
    if (error instanceof DocumentError) throw new SetupError(error.message);
    throw error;
  }
}

/**
 * The operations the suite verifies: every operation of the document (with or without a body,
 * whatever its parameters). Webhooks are the server's requests to others, not operations of it.
 */
export function verifiableOperations(document: LoadedDocument): Operation[] {
  const operations = document.operations.filter((operation) => !isWebhook(operation));
  if (operations.length === 0) throw new SetupError(`${document.source}: the document declares no operation to call; there is nothing to verify`);
  return operations;
}

function isWebhook(operation: Operation): boolean {
  // prism-http gives a webhook a path that is its name, without the leading "/".
  return !operation.path.startsWith('/');
}

export function clientOrExplain(
  target: string,
  settings: { readonly concurrency: number; readonly timeoutMs: number; readonly maxAnswerBytes: number },
  secrets: readonly Secret[] = [],
): HttpClient {
  try {
    return createClient(target, { connections: settings.concurrency, timeoutMs: settings.timeoutMs, maxAnswerBytes: settings.maxAnswerBytes, secrets });
  } catch (error) {
    throw new SetupError(`the target "${target}" is not a usable http(s) URL: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Any HTTP answer at all will do (one too large to read too: the checks report it); a refused or failed connection is a set-up error, not a finding. */
export async function ensureReachable(client: HttpClient, target: string): Promise<void> {
  const response = await client.send({ method: 'GET', url: urlOn(client.baseUrl, '/'), headers: {}, label: 'reachability probe' });
  if (response.error?.kind === 'connection') {
    throw new SetupError(`the target ${target} cannot be reached: ${response.error.message}. Is the server running, and is the URL right?`);
  }
  // A timeout means something accepted the connection: the checks will report the silence.
}
