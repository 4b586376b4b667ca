/**
 * Web URLs (`http(s)://domain/segment/…`, RFC 3986) for the uri formats, as fast-check's webUrl
 * draws them, but without its cost: webUrl's path segments percent-encode a unit of fast-check's
 * 'binary' strings, whose first use builds a 1.1-million-entry table (1.75 s, once in every verify
 * of a document with a `format: uri`). Here the encoded character is our CODE_POINT.
 */
import fc from 'fast-check';
import { CODE_POINT } from './code-point.js';

/** What a path segment holds unencoded (RFC 3986 pchar: unreserved, sub-delims, ':' and '@'). */
const SEGMENT_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@";

/** A code point as a segment carries it: `%XX` for each of its UTF-8 bytes. */
const percentEncoded = CODE_POINT.map((char) => [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

const SEGMENT_UNIT = fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...SEGMENT_CHARS) }, { weight: 1, arbitrary: percentEncoded });

export const WEB_URL: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('https', 'http'), fc.domain(), fc.array(fc.string({ unit: SEGMENT_UNIT }), { maxLength: 5 }))
  .map(([scheme, host, segments]) => `${scheme}://${host}${segments.map((segment) => `/${segment}`).join('')}`);
