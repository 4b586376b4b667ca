/**
 * prism-http as the reference: its own request and response validators, called the way the
 * prism CLI calls them, on the operation prism built from the Plant Store document.
 */
import type { IHttpOperation } from '@stoplight/types';
import { validateInput, validateOutput } from '../../src/core/prism/adapter.js';
import { loadDocument } from '../../src/index.js';

export interface Verdict {
  readonly valid: boolean;
  /** prism's diagnostics, for failure messages. */
  readonly messages: readonly string[];
}

/** The createPlant operation of the bundled document, as prism-http builds it. */
export async function createPlantOperation(): Promise<IHttpOperation> {
  const document = await loadDocument();
  const operation = document.operations.find((candidate) => candidate.iid === 'createPlant');
  if (!operation) throw new Error('the bundled document has no createPlant');
  return operation;
}

/** prism's verdict on a POST /plants request with this JSON text as body (parsed as prism would: JSON.parse). */
export function prismAcceptsRequest(operation: IHttpOperation, bodyText: string): Verdict {
  const result = validateInput({
    resource: operation,
    element: {
      method: 'post',
      url: { path: '/plants' },
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(bodyText)) },
      body: JSON.parse(bodyText) as unknown,
    },
  });
  return result._tag === 'Right' ? { valid: true, messages: [] } : { valid: false, messages: result.left.map((diagnostic) => diagnostic.message) };
}

/** prism's verdict on a response of createPlant: status, headers as received, JSON body. */
export function prismAcceptsResponse(operation: IHttpOperation, statusCode: number, headers: Readonly<Record<string, string>>, bodyText: string): Verdict {
  const result = validateOutput({
    resource: operation,
    element: { statusCode, headers: { ...headers }, body: JSON.parse(bodyText) as unknown },
  });
  return result._tag === 'Right' ? { valid: true, messages: [] } : { valid: false, messages: result.left.map((diagnostic) => diagnostic.message) };
}
