import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { IHttpOperation, IHttpWebhookOperation } from '@stoplight/types';
import { plantstoreVersion } from '../package.js';
import { markUsed, pruneCacheFolder } from '../files/cache-folder.js';

/**
 * What prism-http derives from a document (its operations, ~0.5–1 s of module loading and
 * dereferencing at every start), kept on disk keyed by the document's bytes, so a start with an
 * unchanged document skips prism's operations builder and the YAML parser. Safe by construction:
 * - the key hashes the bytes with the versions of everything that derives the operations;
 * - only self-contained documents are kept (an external $ref could change without these bytes changing);
 * - entries are written to a temporary file and renamed into place, so readers never see half of one;
 * - an entry that is unreadable, malformed or for another key is ignored, and rebuilt;
 * - an entry is written only if it decodes to operations deep-equal to prism's;
 * - at most MAX_ENTRIES entries are kept.
 */

/** Bump when what is derived from a document, or how it is stored, changes. */
const FORMAT = 3;
/** Entries kept; past this, the least recently used go (each edit of a document adds one). */
const MAX_ENTRIES = 100;
const ENTRY_NAME = /^[0-9a-f]{64}\.json$/;
/** Larger files are not cached (nor read here): loadDocument's own reading handles them. */
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

export interface CachedDocument {
  readonly title: string;
  readonly version: string;
  readonly operations: readonly IHttpOperation[];
  readonly webhooks: readonly IHttpWebhookOperation[];
  readonly pathExtensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * The cache folder: PLANTSTORE_CACHE_DIR ("off" turns caching off), else $XDG_CACHE_HOME/plantstore,
 * else ~/.cache/plantstore. Outside node_modules so `npm ci` keeps it, and per user, so no sharing of writes.
 */
export function cacheDirectory(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = environment.PLANTSTORE_CACHE_DIR;
  if (chosen === 'off') return undefined;
  if (chosen) return chosen;
  return join(environment.XDG_CACHE_HOME || join(homedir(), '.cache'), 'plantstore');
}

/**
 * A regular file's bytes, or undefined for anything else (FIFO, directory, missing, too large):
 * those are loadDocument's to read and report. Opened non-blocking, so a FIFO cannot hang it.
 */
export async function readRegularFile(path: string): Promise<Buffer | undefined> {
  return readWhole(path, MAX_CACHED_BYTES, (bytes) => bytes);
}

/**
 * What `use` makes of a regular file's bytes (at most `limit`), or undefined for anything else, or
 * when it cannot be read. Opened non-blocking, so a FIFO put in its place cannot hang a
 * start. Read synchronously: these are the reads of a start that finds its document in the cache,
 * when nothing else is running, and each asynchronous step was a trip to libuv's thread pool (about
 * ten of them, ~6 ms of a start spent waiting; docs/performance.md, twelfth look).
 */
function readWhole<T>(path: string, limit: number, use: (bytes: Buffer, fd: number, stats: Stats) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > limit) return undefined;
    const bytes = readFileSync(fd);
    return bytes.length > limit ? undefined : use(bytes, fd, stats);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

let derivedBy: string | undefined;

/** The versions of plantstore, prism-http and the packages prism builds operations with. */
function derivers(): string {
  derivedBy ??= JSON.stringify([
    FORMAT,
    plantstoreVersion(),
    ...['@stoplight/http-spec', '@stoplight/json-schema-ref-parser', '@stoplight/json'].map(prismDependencyVersion),
    prismVersion(),
  ]);
  return derivedBy;
}

const require = createRequire(import.meta.url);

function prismVersion(): string {
  return versionAbove(require.resolve('@stoplight/prism-http'), '@stoplight/prism-http');
}

function prismDependencyVersion(name: string): string {
  try {
    return `${name}@${versionAbove(createRequire(require.resolve('@stoplight/prism-http')).resolve(name), name)}`;
  } catch {
    return `${name}@unresolved`;
  }
}

/** The version in the nearest package.json named `name` above a resolved file (exports may hide package.json). */
function versionAbove(file: string, name: string): string {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === name && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // No package.json here: keep walking up.
    }
  }
  return 'unknown';
}

export function cacheKey(bytes: Buffer): string {
  return createHash('sha256').update(derivers()).update('\0').update(bytes).digest('hex');
}

/** The entry for `key`, or undefined when there is none or it cannot be trusted. */
export async function readCachedDocument(directory: string, key: string): Promise<CachedDocument | undefined> {
  // An entry is as large as its document's operations make it: no bound of its own, as before.
  return readWhole(join(directory, `${key}.json`), Number.POSITIVE_INFINITY, (bytes, fd, stats) => {
    const entry = decodeEntry(bytes.toString('utf8'), key);
    if (entry !== undefined) markUsed(fd, stats);
    return entry;
  });
}

/** Stores `document` under `key`; any failure (read-only disk, no home) only means no cache. */
export async function writeCachedDocument(directory: string, key: string, document: CachedDocument): Promise<void> {
  const text = encodeEntry(key, document);
  if (text === undefined) return;
  const file = join(directory, `${key}.json`);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, file);
    await pruneCacheFolder(directory, { isEntry: (name) => ENTRY_NAME.test(name), keep: MAX_ENTRIES, slack: MAX_ENTRIES / 4 });
  } catch {
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/** True when the document reaches outside itself ($ref to another file or URL): not cacheable by its bytes. */
export function hasExternalRefs(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasExternalRefs);
  if (typeof value !== 'object' || value === null) return false;
  for (const [name, inner] of Object.entries(value)) {
    if (name === '$ref' && typeof inner === 'string' && !inner.startsWith('#')) return true;
    if (hasExternalRefs(inner)) return true;
  }
  return false;
}

/**
 * JSON, except that prism's operations hold keys whose value is undefined: those are written as a
 * marker string (random, and checked to occur nowhere else in the entry) and restored in place, so
 * keys keep their order. Undefined when the entry would not decode to a deep-equal copy.
 */
export function encodeEntry(key: string, document: CachedDocument): string | undefined {
  const marker = `plantstore:undefined:${randomBytes(16).toString('hex')}`;
  // What JSON carries exactly decodes deep-equal: each value is judged as it is written (decoding the
  // entry and comparing it took four times as long: 1.6 s of a 4.9 MB document's cold start).
  const judge = { exact: true, undefinedCount: 0 };
  let text: string;
  try {
    text = JSON.stringify({ key, undefinedMarker: marker, ...document }, function (this: unknown, name: string, value: unknown) {
      if (value === undefined) {
        judge.undefinedCount++;
        return marker;
      }
      // A toJSON (a Date's) has replaced the value: it would not come back.
      if ((this as Record<string, unknown>)[name] !== value || !carriedExactly(value)) judge.exact = false;
      return value;
    });
  } catch {
    return undefined;
  }
  return judge.exact && text.split(marker).length - 1 === judge.undefinedCount + 1 ? text : undefined;
}

/**
 * Whether JSON writes `value` itself so that it reads back deep-equal (its members are judged on
 * their own): finite numbers other than -0, strings, booleans, null, plain objects with no symbol
 * key, and dense arrays with no other key.
 */
function carriedExactly(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      if (!Array.isArray(value)) return Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__');
      // Integer keys come first, ascending: as many keys as the length, the last being length - 1, means dense and nothing else.
      const keys = Object.keys(value);
      return (
        Object.getPrototypeOf(value) === Array.prototype &&
        keys.length === value.length &&
        (keys.length === 0 || keys[keys.length - 1] === String(value.length - 1))
      );
    }
    default:
      return false;
  }
}

export function decodeEntry(text: string, key: string): CachedDocument | undefined {
  const entry: unknown = JSON.parse(text);
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { key: storedKey, undefinedMarker, title, version, operations, webhooks, pathExtensions } = entry as Record<string, unknown>;
  if (storedKey !== key || typeof undefinedMarker !== 'string' || typeof title !== 'string' || typeof version !== 'string' || !Array.isArray(operations))
    return undefined;
  if (!Array.isArray(webhooks) || typeof pathExtensions !== 'object' || pathExtensions === null || Array.isArray(pathExtensions)) return undefined;
  restoreUndefined(operations, undefinedMarker);
  restoreUndefined(webhooks, undefinedMarker);
  restoreUndefined(pathExtensions, undefinedMarker);
  return {
    title,
    version,
    operations: operations as IHttpOperation[],
    webhooks: webhooks as IHttpWebhookOperation[],
    pathExtensions: pathExtensions as CachedDocument['pathExtensions'],
  };
}

function restoreUndefined(value: unknown, marker: string): void {
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (record[name] === marker) record[name] = undefined;
    else restoreUndefined(record[name], marker);
  }
}
