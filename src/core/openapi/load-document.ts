import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHttpDocumentFromSpec, parseDocumentText, type HttpDocument } from '../prism/document.js';
import { breatheNow } from '../breathe.js';
import { cacheDirectory, cacheKey, hasExternalRefs, readCachedDocument, readRegularFile, writeCachedDocument } from './operations-cache.js';
import { INPUT_FILE_LIMITS, readInputFile } from '../files/read-input-file.js';
import { requestPath, type Operation, type Webhook } from './operation.js';
import { readAsOpenApi3 } from './swagger2.js';
import { PlantstoreError } from '../errors.js';
import { findUpward } from '../package.js';

export type { Operation, Webhook } from './operation.js';

/** An OpenAPI document, read and turned into prism-http operations. */
export interface LoadedDocument {
  /** Where it came from: a file path, or "(inline)" for an object. */
  readonly source: string;
  readonly title: string;
  readonly version: string;
  readonly operations: readonly Operation[];
  /** OpenAPI 3.1 `webhooks`: what the API sends to its subscribers (each named, with no path). */
  readonly webhooks: readonly Webhook[];
  /** Each path item's `x-…` extensions by path template (`x-plantstore` settles resource inference). */
  readonly pathExtensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A document that cannot be used; the message names the file and the cause. */
export class DocumentError extends PlantstoreError {
  override readonly name = 'DocumentError';

  constructor(message: string) {
    super('document', message);
  }
}

const BUNDLED_SPEC = join('spec', 'plant-store.yaml');

/** The Plant Store document shipped with the package. */
export function bundledSpecPath(): string {
  return shippedFile(BUNDLED_SPEC);
}

/** A file shipped with the package (spec/…), found upward from this module, so it works from src and dist. */
export function shippedFile(relativePath: string): string {
  const found = findUpward(relativePath);
  if (found === undefined) throw new DocumentError(`the bundled ${relativePath} was not found above ${fileURLToPath(import.meta.url)}`);
  return found;
}

/**
 * Loads a document from a file (YAML or JSON; YAML is a superset, so one parser reads both)
 * or from an already parsed object, and builds its operations with prism-http.
 *
 * With `signal`, the reading breathes (core/breathe.ts) so that a SIGTERM is heard while a large
 * document is read (DigitalOcean's: seconds), and once `signal` is aborted it stops at the next
 * breath, throwing the signal's reason.
 */
export async function loadDocument(spec: string | object = bundledSpecPath(), signal?: AbortSignal): Promise<LoadedDocument> {
  signal?.throwIfAborted();
  const source = typeof spec === 'string' ? resolve(spec) : '(inline)';
  // A file seen before (same bytes, same versions) skips parsing and prism: see operations-cache.ts.
  const cache = typeof spec === 'string' ? await cacheFor(source) : undefined;
  const cached = cache && (await readCachedDocument(cache.directory, cache.key));
  if (cached) return { source, ...cached, operations: onTheirRoutes(cached.operations) };
  const document = typeof spec === 'string' ? await readDocumentFile(source, signal) : spec;
  // A breath after the parse (a fresh breather would not yet yield): a halt that fell due during it is heard here.
  if (signal !== undefined) await breatheNow(signal);
  if (!isRecord(document) || (typeof document.openapi !== 'string' && typeof document.swagger !== 'string')) {
    throw new DocumentError(`${source}: not an OpenAPI document (no "openapi" version field at the top level)`);
  }
  // Read before prism dereferences the parsed document in place.
  const external = hasExternalRefs(document);
  const info = isRecord(document.info) ? { ...document.info } : {};
  let read: HttpDocument;
  try {
    // prism resolves $refs relative to the file when given a path; an object has none to resolve against.
    read = await (typeof spec === 'string' ? getHttpDocumentFromSpec(source, document, signal) : getHttpDocumentFromSpec(document, undefined, signal));
  } catch (error) {
    if (signal?.aborted === true) throw signal.reason;
    throw new DocumentError(`${source}: prism-http could not read the document: ${messageOf(error)}`);
  }
  const { webhooks, pathExtensions } = read;
  // Read before caching, so a cached entry holds the operations as every reader sees them.
  const operations = readAsOpenApi3(read.operations, document);
  if (operations.length === 0) throw new DocumentError(`${source}: the document declares no operations`);
  const loaded = {
    title: typeof info.title === 'string' ? info.title : 'untitled',
    version: typeof info.version === 'string' ? info.version : 'unversioned',
    operations,
    webhooks,
    pathExtensions,
  };
  if (cache && !external) await storeIfUnchanged(source, cache, loaded);
  return { source, ...loaded, operations: onTheirRoutes(operations) };
}

/**
 * Each operation as a request for it is made: on the path it takes (requestPath: without the "#…"
 * some documents add to a key), and without the header parameters OpenAPI says to ignore (Accept,
 * Content-Type, Authorization: the media types and security schemes say those). DigitalOcean
 * declares Content-Type with an enum, and serve refused `application/json; charset=utf-8`.
 */
function onTheirRoutes(operations: readonly Operation[]): readonly Operation[] {
  if (!operations.some((o) => o.path.includes('#') || ignoredHeaders(o))) return operations;
  return operations.map((o) => {
    const routed = o.path.includes('#') ? { ...o, path: requestPath(o.path) } : o;
    const headers = routed.request?.headers;
    return headers === undefined || !ignoredHeaders(routed)
      ? routed
      : { ...routed, request: { ...routed.request, headers: headers.filter((h) => !IGNORED_HEADERS.has(h.name.toLowerCase())) } };
  });
}

const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function ignoredHeaders(operation: Operation): boolean {
  return (operation.request?.headers ?? []).some((h) => IGNORED_HEADERS.has(h.name.toLowerCase()));
}

async function cacheFor(source: string): Promise<{ directory: string; key: string } | undefined> {
  const directory = cacheDirectory();
  const bytes = directory === undefined ? undefined : await readRegularFile(source);
  return directory === undefined || bytes === undefined ? undefined : { directory, key: cacheKey(bytes) };
}

/** prism read the file itself: store its operations only if the file still has the bytes the key was made from. */
async function storeIfUnchanged(source: string, cache: { directory: string; key: string }, loaded: Omit<LoadedDocument, 'source'>): Promise<void> {
  const bytes = await readRegularFile(source);
  if (bytes !== undefined && cacheKey(bytes) === cache.key) await writeCachedDocument(cache.directory, cache.key, loaded);
}

async function readDocumentFile(path: string, signal: AbortSignal | undefined): Promise<unknown> {
  let text: string;
  try {
    text = await readInputFile(path, INPUT_FILE_LIMITS.document);
  } catch (error) {
    throw new DocumentError(`${path}: cannot read the document (--spec): ${messageOf(error)}`);
  }
  // Halted while it was read: not parsed (DigitalOcean's takes 0.2–0.5 s in one piece).
  signal?.throwIfAborted();
  try {
    return parseDocumentText(text, path);
  } catch (error) {
    throw new DocumentError(`${path}: not valid YAML or JSON: ${messageOf(error)}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
