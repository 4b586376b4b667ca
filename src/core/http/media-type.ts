/**
 * Media types, one reading for the server's request check and the suite's answer checks:
 * parse a Content-Type header, match it against a declared (possibly wildcard) type, and tell JSON.
 * (contracts/reporters/regression-runtime.ts keeps its own five lines: it must stand alone where it is copied.)
 */

/** A Content-Type header split into its type and charset, lower-cased. */
export interface MediaType {
  readonly type: string;
  readonly charset?: string;
}

/** Clients send the same few Content-Type strings over and over; parsing each once is enough. */
const parsed = new Map<string, MediaType | undefined>();
const PARSED_KEPT = 256;

export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  if (parsed.has(header)) return parsed.get(header);
  const mediaType = parseUncached(header);
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(header, mediaType);
  return mediaType;
}

function parseUncached(header: string): MediaType | undefined {
  const [essence = '', ...parameters] = header.split(';');
  const type = essence.trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+*-]+$/.test(type)) return undefined;
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() === 'charset') {
      return {
        type,
        charset: value
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .toLowerCase(),
      };
    }
  }
  return { type };
}

/** "type/subtype" in lower case, parameters (charset, ...) dropped; undefined when there is none. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === undefined || type === '' ? undefined : type;
}

/**
 * Whether a declared media type (which may be a wildcard such as application/* ) accepts `actual`
 * (a lower-case "type/subtype", as parseMediaType and mediaTypeOf give it).
 */
export function mediaTypeAccepts(declared: string, actual: string): boolean {
  const [declaredType, declaredSubtype] = (mediaTypeOf(declared) ?? '').split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (declaredType === '*' || declaredType === actualType) && (declaredSubtype === '*' || declaredSubtype === actualSubtype);
}

/** application/json and the +json family (application/problem+json, …) carry JSON. */
export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * Media types whose bodies are text: read (and held to UTF-8) before they are checked. Any other
 * (image/png, application/octet-stream, …) is bytes, judged by its media type only and never decoded.
 */
export function isTextMediaType(type: string): boolean {
  return (
    type.startsWith('text/') || isJsonMediaType(type) || type === 'application/x-www-form-urlencoded' || type === 'application/xml' || type.endsWith('+xml')
  );
}
