/**
 * A document read the way prism reads it: its text parsed once (with the parser prism's $ref parser
 * uses), dereferenced, and turned into prism's operations, plus what prism's builder drops (webhooks,
 * path items' x- extensions). Part of the prism adapter: the modules come through `fromPrism`.
 */
import { arch, release, type } from 'node:os';
import { extname } from 'node:path';
import type { IHttpOperation, IHttpWebhookOperation } from '@stoplight/types';
import { SEVERITY } from './severity.js';
import { fromPrism } from './adapter.js';
import { parseStrictJson } from './json-text.js';
import { bundlesToItself, decycle } from './tree-steps.js';
import { pauseFor } from '../breathe.js';

/** A document as prism reads it, with what prism's operations builder drops: webhooks and path items' x- extensions. */
export interface HttpDocument {
  readonly operations: IHttpOperation[];
  /** OpenAPI 3.1 `webhooks`, built as http-spec builds them (transformOas3WebhookOperations): `name` in place of `path`. */
  readonly webhooks: IHttpWebhookOperation[];
  /** Each path item's `x-…` keys ($refs resolved), by path template: prism keeps only the operations' own. */
  readonly pathExtensions: Record<string, Record<string, unknown>>;
}

type HttpSpecOas3 = typeof import('@stoplight/http-spec/oas3/operation');
type HttpSpecOas = typeof import('@stoplight/http-spec/oas');
type JsonModule = typeof import('@stoplight/json');

/**
 * prism's getHttpOperationsFromSpec (utils/operations.js, 5.16.0) step for step — one dereference,
 * the same transforms, each operation bundled the same way, so `operations` are deep-equal to its
 * (test/document/operations-cache.test.ts checks) — and, from that same dereferenced document, the
 * webhooks and path extensions. Calling prism's and then reading the document again would parse twice.
 *
 * With `signal`, the reading stops once it is aborted, throwing its reason: at the next file the
 * $ref parser reads (DigitalOcean's 2,907 files take seconds), after the dereference, and between
 * operations, which an OpenAPI 3 document then has built one at a time with a breath between them
 * (the same calls http-spec makes, in its order: DigitalOcean's 659 held the event loop 2–4 s in
 * one piece, so a signal was not heard). The parser's own crawls are single calls that cannot be split.
 */
export async function getHttpDocumentFromSpec(spec: string | object, parsed?: object, signal?: AbortSignal): Promise<HttpDocument> {
  const pause = signal === undefined ? undefined : pauseFor(signal);
  const RefParser = fromPrism('@stoplight/json-schema-ref-parser') as new () => {
    dereference(...args: [spec: string | object, options: object] | [path: string, schema: object, options: object]): Promise<unknown>;
  };
  const json = fromPrism('@stoplight/json') as JsonModule;
  const prismVersion = (fromPrism('@stoplight/prism-http/package.json') as { version: string }).version;
  const headers = { 'User-Agent': `PrismMockServer/${prismVersion} (${type()} ${arch()} ${release()})` };
  // A resolver that reads nothing: the parser asks each resolver whether it reads a file, and its answer stops the reading once halted.
  const halt = signal === undefined ? {} : { halt: { order: 1, canRead: () => (signal.throwIfAborted(), false) } };
  const options = { resolve: { http: { headers }, ...halt } };
  // Given the document already parsed (parseDocumentText: the parser the $ref parser would use), it
  // reads the file no second time; the path still anchors relative $refs.
  const dereferenced =
    typeof spec === 'string' && parsed !== undefined ? new RefParser().dereference(spec, parsed, options) : new RefParser().dereference(spec, options);
  const whole = await dereferenced;
  await pause?.();
  // decycle and bundleTarget as @stoplight/json's, same results, less work (see tree-steps.ts).
  const result = decycle(json, whole) as Record<string, unknown>;
  await pause?.();
  const bundled = <T extends object>(target: T): T =>
    bundlesToItself(result, target)
      ? target
      : (json.bundleTarget({ document: { ...result, __target__: target }, path: '#/__target__', cloneDocument: false }) as T);
  if (result.swagger !== undefined) {
    const oas2 = fromPrism('@stoplight/http-spec/oas2/operation') as { transformOas2Operations(document: unknown): IHttpOperation[] };
    return { operations: oas2.transformOas2Operations(result).map(bundled), webhooks: [], pathExtensions: pathExtensionsOf(result.paths) };
  }
  if (result.openapi !== undefined) {
    const oas3 = fromPrism('@stoplight/http-spec/oas3/operation') as HttpSpecOas3;
    const document = result as Parameters<HttpSpecOas3['transformOas3Operations']>[0];
    if (pause === undefined)
      return {
        operations: oas3.transformOas3Operations(document).map(bundled) as IHttpOperation[],
        webhooks: oas3.transformOas3WebhookOperations(document).map(bundled) as IHttpWebhookOperation[],
        pathExtensions: pathExtensionsOf(result.paths),
      };
    const oas = fromPrism('@stoplight/http-spec/oas') as HttpSpecOas;
    // http-spec's own walk names the endpoints, in its order and by its filter; each is then built as its transform builds it.
    const endpoints = (config: typeof oas.OPERATION_CONFIG): Array<{ readonly name: string; readonly method: string }> => {
      const named: Array<{ readonly name: string; readonly method: string }> = [];
      // The transformer only notes which endpoint it is asked for; what it returns is dropped.
      oas.transformOasEndpointOperations(
        document,
        ({ name, method }: { readonly name: string; readonly method: string }) => (named.push({ name, method }), {} as IHttpOperation),
        config,
      );
      return named;
    };
    // All transformed, then all bundled, as prism's order is (bundleTarget is not told to copy the document).
    const built = async <T extends object>(config: typeof oas.OPERATION_CONFIG): Promise<T[]> => {
      const transformed: T[] = [];
      for (const { name, method } of endpoints(config)) {
        await pause();
        transformed.push(oas3.transformOas3Operation({ document, name, method, config }) as T);
      }
      const operations: T[] = [];
      for (const operation of transformed) {
        await pause();
        operations.push(bundled(operation));
      }
      return operations;
    };
    return {
      operations: await built<IHttpOperation>(oas.OPERATION_CONFIG),
      webhooks: await built<IHttpWebhookOperation>(oas.WEBHOOK_CONFIG),
      pathExtensions: pathExtensionsOf(result.paths),
    };
  }
  if (Array.isArray(result.item) && typeof result.info === 'object' && result.info !== null && (result.info as { name?: unknown }).name !== undefined) {
    const postman = fromPrism('@stoplight/http-spec/postman/operation') as { transformPostmanCollectionOperations(document: unknown): IHttpOperation[] };
    return { operations: postman.transformPostmanCollectionOperations(result).map(bundled), webhooks: [], pathExtensions: {} };
  }
  throw new Error('Unsupported document format');
}

type StoplightYaml = typeof import('@stoplight/yaml');

/**
 * A document's text as prism's $ref parser reads it, so that one parse serves both plantstore and
 * prism: a `.json` file with JSON.parse (its first parser for that extension), anything else, or
 * JSON that does not parse, with @stoplight/yaml (JSON being YAML; its parser options), several
 * times faster than the yaml package. Duplicate keys are refused rather than silently merged.
 */
export function parseDocumentText(text: string, path?: string): unknown {
  if (path !== undefined && extname(path).toLowerCase() === '.json') {
    const value = parseStrictJson(text);
    if (value !== undefined) return value;
  }
  const yaml = fromPrism('@stoplight/yaml') as StoplightYaml;
  const parsed = yaml.parseWithPointers(text, { ignoreDuplicateKeys: false, mergeKeys: false });
  const problem = parsed.diagnostics.find((diagnostic) => diagnostic.severity === SEVERITY.error);
  if (problem) throw new Error(`${problem.message} at line ${problem.range.start.line + 1}, column ${problem.range.start.character + 1}`);
  return parsed.data;
}

function pathExtensionsOf(paths: unknown): Record<string, Record<string, unknown>> {
  const found: Record<string, Record<string, unknown>> = {};
  if (typeof paths !== 'object' || paths === null) return found;
  for (const [path, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue;
    const extensions = Object.entries(item).filter(([key]) => key.startsWith('x-'));
    if (extensions.length > 0) found[path] = Object.fromEntries(extensions);
  }
  return found;
}
