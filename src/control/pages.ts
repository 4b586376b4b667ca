/** A list as the control API answers it (the plants and every resource's items alike): a page at a time. */
import type { HandlerContext } from '../http/binding.js';
import { JSON_HEADERS, type Outcome } from '../http/answer.js';
import { isCursor } from '../store/memory-store.js';
import { json, refused } from './answers.js';

/** Items per page when the client names no `limit`, and the most it may name. */
export const LIST_LIMITS = { default: 1_000, max: 10_000 } as const;
/** A page stops growing past this many bytes of JSON (names can be long), so no answer is one giant string. */
const PAGE_BYTES = 1024 * 1024;
/** Items read from the store at a time while a page is filled. */
const READ_CHUNK = 256;

export const NEXT_CURSOR_HEADER = 'plantstore-next-cursor';

/** Reads a page of stored entries as JSON texts, `limit` at most, from `cursor`. */
export type PageReader = (cursor: string | undefined, limit: number) => Promise<{ readonly texts: readonly string[]; readonly next?: string | undefined }>;

/**
 * One page in creation order, filled in chunks up to the page's limit or about 1 MiB of JSON. The
 * body is the array of items; the next page is named in a `Link: <…>; rel="next"` header and, for
 * clients that read no links, in `Plantstore-Next-Cursor`. Neither is sent on the last page. An
 * absent reader (a tenant that holds nothing) is an empty page.
 */
export async function pagedAnswer(
  read: PageReader | undefined,
  page: { readonly limit: number; readonly cursor?: string | undefined },
  nextUrl: (cursor: string) => string,
): Promise<Outcome> {
  const parts: string[] = [];
  let bytes = 2;
  let cursor = page.cursor;
  while (read && parts.length < page.limit && bytes < PAGE_BYTES) {
    const chunk = await read(cursor, Math.min(READ_CHUNK, page.limit - parts.length));
    for (const text of chunk.texts) {
      parts.push(text);
      bytes += text.length + 1;
    }
    cursor = chunk.next;
    if (cursor === undefined) break;
  }
  const body = `[${parts.join(',')}]`;
  if (cursor === undefined) return json(200, body);
  const next = nextUrl(cursor);
  return { ok: true, answer: { status: 200, headers: { ...JSON_HEADERS, link: `<${next}>; rel="next"`, [NEXT_CURSOR_HEADER]: cursor }, body } };
}

/** `limit` and `cursor` from the query; the document checks their form, this checks them again for another document. */
export function pageQuery(
  query: HandlerContext['request']['query'],
): { ok: true; limit: number; cursor: string | undefined } | { ok: false; refusal: Outcome } {
  const limitText = query.limit;
  const cursor = query.cursor;
  if (Array.isArray(limitText) || Array.isArray(cursor)) return { ok: false, refusal: refused('schemaViolation', 'limit and cursor may each be given once') };
  const limit = limitText === undefined ? LIST_LIMITS.default : Number(limitText);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMITS.max) {
    return { ok: false, refusal: refused('schemaViolation', `limit must be a whole number from 1 to ${LIST_LIMITS.max}, not "${limitText ?? ''}"`) };
  }
  if (cursor !== undefined && !isCursor(cursor)) {
    return {
      ok: false,
      refusal: refused(
        'schemaViolation',
        `cursor "${cursor}" is not one this server gave; use the Plantstore-Next-Cursor of the previous page, or leave it out to start`,
      ),
    };
  }
  return { ok: true, limit, cursor };
}
