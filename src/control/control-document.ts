import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocumentError, loadDocument, type LoadedDocument } from '../document/load-document.js';

const CONTROL_SPEC = join('spec', 'control-api.yaml');

/** spec/control-api.yaml as shipped with the package, found upward from this module (src or dist). */
export function controlSpecPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, CONTROL_SPEC);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new DocumentError(`the bundled ${CONTROL_SPEC} was not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The control API's document, ready for the pipeline's control Site. */
export function loadControlDocument(): Promise<LoadedDocument> {
  return loadDocument(controlSpecPath());
}
