import { join } from 'node:path';
import { loadDocument, shippedFile, type LoadedDocument } from '../core/openapi/load-document.js';

/** spec/control-api.yaml as shipped with the package. */
export function controlSpecPath(): string {
  return shippedFile(join('spec', 'control-api.yaml'));
}

/** The control API's document, ready for the pipeline's control Site. */
export function loadControlDocument(): Promise<LoadedDocument> {
  return loadDocument(controlSpecPath());
}
