/**
 * Answer headers whose meaning real APIs agree on, read by name: one table for the stand-in, which
 * writes them truthfully (handlers/resource/answer-headers.ts), and for verify, which holds a
 * target's to the same meaning (contracts/checks/list-total-counted.ts).
 */
import type { IHttpOperation } from '@stoplight/types';
import { declaredResponse } from './operation.js';

export type HeaderMeaning = 'location' | 'etag' | 'total' | 'link' | 'next';

/** By lower-case name. */
const MEANINGS: Readonly<Record<string, HeaderMeaning>> = {
  location: 'location',
  etag: 'etag',
  'x-total-count': 'total',
  'x-total': 'total',
  'total-count': 'total',
  'x-total-items': 'total',
  link: 'link',
  'x-next': 'next',
};

export function headerMeaning(name: string): HeaderMeaning | undefined {
  return MEANINGS[name.toLowerCase()];
}

/** The lower-case names of the headers the operation's `status` answer declares with this meaning. */
export function declaredHeadersMeaning(operation: IHttpOperation, status: number, meaning: HeaderMeaning): string[] {
  return (declaredResponse(operation, status)?.headers ?? []).map((header) => header.name.toLowerCase()).filter((name) => MEANINGS[name] === meaning);
}
