/**
 * The start banner's account of the modes that change what the stand-in does with a request or a
 * file: --proxy (answers come from elsewhere) and --watch (files are read again). Plain lines;
 * serve.ts makes them printable.
 */
import { basePathsOf } from '../core/openapi/base-paths.js';
import { bundledSpecPath, type Operation } from '../core/openapi/load-document.js';
import type { ServerOptions } from '../server/start-server.js';

export function modeLines(options: ServerOptions): string[] {
  return [proxyLine(options), watchLine(options)];
}

function proxyLine({ proxy, proxyStrict }: ServerOptions): string {
  if (proxy === undefined) return 'proxy: off (answers come from the stand-in)';
  const strict = proxyStrict
    ? '--proxy-strict: an invalid request is refused, a violating answer becomes a 502 Error'
    : 'answers pass unchanged, violations go to the journal';
  return `proxy: on, every API request is forwarded to ${proxy} and judged against the document (${strict}); the store is not used`;
}

function watchLine({ watch, spec, optionSources }: ServerOptions): string {
  if (!watch) return 'watch: off (restart to take an edited document, config or seed file)';
  if (typeof spec === 'object') return 'watch: on, but the document was given as an object: nothing to watch';
  const files = [`document ${spec ?? bundledSpecPath()}`, ...(optionSources?.files ?? []).map(({ what, path }) => `${what} ${path}`)];
  return `watch: on, reloading when one of these changes (stored items are kept): ${files.join(', ')}`;
}

/** Where else the API answers: under each of the document's servers' paths (empty when they have none). */
export function basePathLines(url: string, operations: readonly Operation[]): string[] {
  const paths = basePathsOf(operations);
  if (paths.length === 0) return [];
  return [`also answering under ${paths.map((path) => `${url}${path}`).join(', ')} (the document's servers; its own paths win where they collide)`];
}
