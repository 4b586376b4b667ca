/**
 * What a Swagger 2.0 document says that prism's http-spec hands on in 2.0's words, read as OpenAPI 3
 * says it, so that every reader (serve's validator, verify's generator and judge) sees one schema:
 * - `type: file` (a formData file field, or a file answer) is OpenAPI 3's file, `type: string,
 *   format: binary`: ajv refuses to compile a `file` type (serve answered 500) and verify's
 *   generator found nothing to draw (it stopped before its first request);
 * - `basePath` is where the API is served even when the document names no `host` or `schemes`
 *   (2.0: the documentation's own host and scheme then), which http-spec drops with the host: such
 *   operations get it as a relative server, so serve answers under it as under a 3.x server's path.
 */
import type { Operation } from './operation.js';

type Schema = Readonly<Record<string, unknown>>;

/** The operations of a document whose top level is `document`; unchanged unless it is Swagger 2.0. */
export function readAsOpenApi3(operations: readonly Operation[], document: Readonly<Record<string, unknown>>): readonly Operation[] {
  if (typeof document.swagger !== 'string') return operations;
  const basePath = typeof document.basePath === 'string' && document.basePath.replace(/\/+$/, '') !== '' ? document.basePath : undefined;
  return operations.map((operation) => {
    const withFiles = withoutFileTypes(operation);
    const servers = withFiles.servers ?? [];
    return basePath === undefined || servers.length > 0 ? withFiles : { ...withFiles, servers: [{ id: `${withFiles.id}-base-path`, url: basePath }] };
  });
}

function withoutFileTypes(operation: Operation): Operation {
  const body = operation.request?.body;
  const contents = body?.contents === undefined ? undefined : readContents(body.contents);
  const responses = operation.responses.map((r) => {
    if (r.contents === undefined) return r;
    const read = readContents(r.contents);
    return read === r.contents ? r : { ...r, contents: read };
  });
  const bodyRead = body !== undefined && contents !== undefined && contents !== body.contents;
  const responsesRead = responses.some((r, i) => r !== operation.responses[i]);
  if (!bodyRead && !responsesRead) return operation;
  return {
    ...operation,
    ...(bodyRead && contents !== undefined ? { request: { ...operation.request, body: { ...body, contents } } } : {}),
    ...(responsesRead ? { responses } : {}),
  };
}

/** The media types' schemas read; the same array when none had a file type. */
function readContents<C extends { readonly schema?: unknown }>(contents: C[]): C[] {
  const read = contents.map((c) => {
    const schema = fileAsString(c.schema);
    return schema === c.schema ? c : { ...c, schema };
  });
  return read.some((c, i) => c !== contents[i]) ? read : contents;
}

const NESTED = ['items', 'additionalProperties', 'not'] as const;
const LISTS = ['allOf', 'anyOf', 'oneOf'] as const;

/** `schema` with every `type: file` in it (its properties, items, branches) made `string`/`binary`; itself when it has none. */
function fileAsString<T>(schema: T, depth = 0): T {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > 32) return schema;
  const source = schema as Schema;
  const changes: Record<string, unknown> = {};
  if (source.type === 'file') Object.assign(changes, { type: 'string', format: 'binary' });
  const properties = source.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
    const entries = Object.entries(properties as Schema);
    const read = entries.map(([k, v]) => [k, fileAsString(v, depth + 1)] as const);
    if (read.some(([, v], i) => v !== entries[i]?.[1])) changes.properties = Object.fromEntries(read);
  }
  for (const key of NESTED) {
    const read = fileAsString(source[key], depth + 1);
    if (read !== source[key]) changes[key] = read;
  }
  for (const key of LISTS) {
    const list = source[key];
    if (!Array.isArray(list)) continue;
    const read = list.map((v: unknown) => fileAsString(v, depth + 1));
    if (read.some((v, i) => v !== list[i])) changes[key] = read;
  }
  return Object.keys(changes).length === 0 ? schema : ({ ...source, ...changes } as T);
}
