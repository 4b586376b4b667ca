import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markUsed, pruneCacheFolder } from '../files/cache-folder.js';
import { cacheDirectory } from '../openapi/operations-cache.js';
import { plantstoreVersion } from '../package.js';

/**
 * Compiled validators kept on disk as Ajv standalone code (the code Ajv generates for a schema, as a
 * CommonJS module), beside the operations cache, so a start answers its first request without
 * loading Ajv (~60 CommonJS files) or compiling its meta-schema: ~30 % of a start's CPU to its first
 * answer (docs/performance.md, issue 21). Trusted as node_modules and the operations cache are, and
 * no further (see docs/performance.md "Issue 21, third pass" for why running it is acceptable):
 * - the key hashes everything the code is generated from: the schema and its bundle as JSON text,
 *   the Ajv set-up (draft, options, formats, the text of the module that sets Ajv up) with the
 *   versions of Ajv, ajv-formats, prism-http and plantstore; a schema that is not plain JSON (a
 *   bigint, NaN, -0, a cycle) is not cached;
 * - an entry starts with a line naming its key and the SHA-256 of its code: a truncated, corrupt or
 *   misplaced entry is ignored (and rewritten), as is one that throws or exports no function;
 * - an entry is read only if it is a regular file owned by this user and writable by nobody else,
 *   in a folder created private (0700; files 0600), written whole and renamed into place;
 * - at most MAX_ENTRIES are kept, the least recently used going first (core/files/cache-folder.ts).
 */

/** Bump when what an entry holds, or how, changes. */
const FORMAT = 1;
const MAX_ENTRIES = 2000;
const ENTRY_NAME = /^[0-9a-f]{64}\.js$/;
/** A larger entry is neither written nor read (generated code is a few KB; a huge schema stays uncached). */
const MAX_BYTES = 4 * 1024 * 1024;
const HEADER = /^\/\/ plantstore validator (\d+) ([0-9a-f]{64}) ([0-9a-f]{64})\n/;

/** A compiled validator as Ajv makes it: true or false, with the errors of the last false. */
export interface CachedValidate {
  (data: unknown): boolean;
  errors?: unknown;
}

/** The folder of validators under the cache folder; undefined when caching is off. */
function validatorsFolder(): string | undefined {
  const root = cacheDirectory(process.env);
  return root === undefined ? undefined : join(root, 'validators');
}

const bundleDigests = new WeakMap<object, string>();

/** JSON text of a value that is plain JSON, else undefined (then what Ajv sees could differ from what the text says). */
function plainJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (_name, inner: unknown) => {
      if (typeof inner === 'number' && (!Number.isFinite(inner) || Object.is(inner, -0))) throw new Error('not plain');
      if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
        const prototype: unknown = Object.getPrototypeOf(inner);
        if (prototype !== Object.prototype && prototype !== null) throw new Error('not plain');
      }
      if (inner === undefined || typeof inner === 'bigint' || typeof inner === 'function' || typeof inner === 'symbol') throw new Error('not plain');
      return inner;
    });
  } catch {
    return undefined;
  }
}

/** A bundle is shared by an operation's schemas (and can be most of a document): hashed once. */
function bundleDigest(bundle: unknown): string | undefined {
  if (typeof bundle !== 'object' || bundle === null) return plainJson(bundle ?? null);
  let digest = bundleDigests.get(bundle);
  if (digest === undefined) {
    const text = plainJson(bundle);
    if (text === undefined) return undefined;
    digest = createHash('sha256').update(text).digest('hex');
    bundleDigests.set(bundle, digest);
  }
  return digest;
}

/**
 * The key of a validator compiled from `schema` with `bundle` under `setup` (the Ajv set-up and the
 * versions, as one string); undefined when caching is off or the schema cannot be keyed by its text.
 */
export function validatorKey(schema: object, bundle: unknown, setup: string): string | undefined {
  if (validatorsFolder() === undefined) return undefined;
  const text = plainJson(schema);
  const bundled = text === undefined ? undefined : bundleDigest(bundle);
  if (text === undefined || bundled === undefined) return undefined;
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, plantstoreVersion(), setup, bundled]))
    .update('\0')
    .update(text)
    .digest('hex');
}

const digestOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** Owned by this user and writable by no one else (where the platform has owners). */
function isPrivate(stats: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
}

/**
 * The validator stored under `key`, its require() calls answered by `requireFor`; undefined when
 * there is none or it cannot be trusted (then the caller compiles, and writes it again).
 */
export function readValidator(key: string, requireFor: (specifier: string) => unknown): CachedValidate | undefined {
  const folder = validatorsFolder();
  if (folder === undefined) return undefined;
  let text: string;
  try {
    const fd = openSync(join(folder, `${key}.js`), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size > MAX_BYTES || !isPrivate(stats)) return undefined;
      text = readFileSync(fd, 'utf8');
      markUsed(fd, stats);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const header = HEADER.exec(text);
  if (header === null || Number(header[1]) !== FORMAT || header[2] !== key) return undefined;
  const code = text.slice(header[0].length);
  if (digestOf(code) !== header[3]) return undefined;
  try {
    const module: { exports: unknown } = { exports: {} };
    // The same evaluation Ajv does for code it has just generated (new Function), of code it generated earlier.
    new Function('module', 'exports', 'require', code)(module, module.exports, requireFor);
    return typeof module.exports === 'function' ? (module.exports as CachedValidate) : undefined;
  } catch {
    return undefined;
  }
}

let pruned = false;

/**
 * Stores the code `generate` makes under `key`, synchronously: a first answer is often all a
 * process lives for (a test's stand-in, the start-up bench), and a write that had not finished
 * would leave the next start cold. A few KB; any failure (code Ajv cannot write standalone, a
 * read-only disk, no home) only means no cache.
 */
export function writeValidator(key: string, generate: () => string): void {
  const folder = validatorsFolder();
  if (folder === undefined) return;
  let code: string;
  try {
    code = generate();
  } catch {
    return; // code Ajv cannot write standalone: the validator just compiled is used, uncached
  }
  if (code.length > MAX_BYTES) return;
  const file = join(folder, `${key}.js`);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `// plantstore validator ${FORMAT} ${key} ${digestOf(code)}\n${code}`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was written, or nothing can be removed: either way no entry
    }
    return;
  }
  if (!pruned) {
    pruned = true;
    // Once a process: what a killed process left half-written, and the least used entries past the limit.
    void pruneCacheFolder(folder, { isEntry: (name) => ENTRY_NAME.test(name), keep: MAX_ENTRIES, slack: MAX_ENTRIES / 4 }).catch(() => undefined);
  }
}
