/** Header values as one string each, the way servers, the client and the tests all need them. */
export { STATUS_CODES } from 'node:http';

/** A header as node and undici give it: absent, one value, or several (repeated header lines). */
export type HeaderValue = string | readonly string[] | undefined;

/** Repeated header lines as one value, joined with ", " (RFC 9110 §5.3). */
export function headerText(value: HeaderValue): string | undefined {
  return typeof value === 'string' || value === undefined ? value : value.join(', ');
}

/** Every header as one string, names lower-cased (node already does; undici may not). */
export function flattenHeaders(headers: Readonly<Record<string, HeaderValue>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = headerText(value);
    if (text !== undefined) flat[name.toLowerCase()] = text;
  }
  return flat;
}

/** A Cookie header's pairs in order; a pair without "=" has an empty name (RFC 6265 §5.4 user agents send such). */
export function cookiePairs(header: string | undefined): Array<{ name: string; value: string }> {
  if (header === undefined) return [];
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? { name: '', value: pair } : { name: pair.slice(0, equals), value: pair.slice(equals + 1) };
    });
}

/** A request's Content-Type, however its name was cased (verify's valid cases vary it). */
export function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'content-type') return value;
  return undefined;
}
