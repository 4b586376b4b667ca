/**
 * What `GET /` and `GET /__control` answer when no operation has those paths: a small pointer
 * (the document's title, its operations, where the control API and the inspector are) rather
 * than a 404 that leaves a person who opened the URL in a browser guessing.
 */
import type { LoadedDocument } from '../core/openapi/load-document.js';
import { operationName } from '../core/openapi/operation.js';
import type { Answer } from '../http/answer.js';

export interface Places {
  readonly control: string;
  readonly inspector: string;
}

export function pointerAnswer(document: LoadedDocument, places: Places, role: 'api' | 'control'): Answer {
  const body = {
    title: document.title,
    version: document.version,
    operations: document.operations.map((operation) => ({ method: operation.method.toUpperCase(), path: operation.path, operation: operationName(operation) })),
    ...(role === 'api' ? {} : { api: '/' }),
    control: places.control,
    health: `${places.control}/health`,
    inspector: places.inspector,
  };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body, null, 2) };
}
