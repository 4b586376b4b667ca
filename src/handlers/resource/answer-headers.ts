/**
 * The headers a role's success answer declares, written as the stand-in knows them: a create's
 * Location (the new item's path), an item's ETag (its stored version: the same for every answer
 * showing that version, another once it changes), a list's total (X-Total-Count and its kin) and its pages (an RFC
 * 8288 Link with first, prev, next and last, as json-server and GitHub write it; X-Next). Any other
 * header the document requires gets its schema's one small value (core/schema/value.ts); an optional
 * one of no known meaning is left out, as the document allows. Compiled once per operation: where
 * none is declared, nothing is done per request.
 */
import { createHash } from 'node:crypto';
import type { IHttpOperation } from '@stoplight/types';
import { toJsonText, type JsonValue } from '../../core/json/exact-json.js';
import { declaredResponse } from '../../core/openapi/operation.js';
import { headerMeaning, type HeaderMeaning } from '../../core/openapi/header-meanings.js';
import { valueMaker, type ValueMaker } from '../../core/schema/value.js';
import type { Outcome } from '../../http/answer.js';
import { answer, type SuccessAnswer } from './parts.js';

/** What a role knows of its answer, each asked for only where a declared header needs it. */
export interface AnswerFacts {
  /** The item's path, as the client would ask for it (a create's Location). */
  readonly location?: string;
  /** The item as stored, whose version an ETag names. */
  readonly item?: JsonValue;
  /** The collection's items under the list's filters. */
  readonly total?: () => number | Promise<number>;
  /** The list's other pages, as absolute URLs (a browser app on another origin follows them as they are). */
  readonly pages?: () => PageLinks | Promise<PageLinks>;
}

/** Each present where the list has such a page: next is absent on the last page, prev on the first. */
export interface PageLinks {
  readonly first?: string;
  readonly prev?: string;
  readonly next?: string;
  readonly last?: string;
}

const RELATIONS = ['first', 'prev', 'next', 'last'] as const;

export type AnswerHeaders = (facts: AnswerFacts) => Promise<Readonly<Record<string, string>>>;

interface Written {
  readonly name: string;
  readonly meaning: HeaderMeaning | undefined;
  /** Required: a header of no known value still goes out, with its schema's small value (a uuid fresh each time). */
  readonly fallback: ValueMaker | undefined;
}

/** The declared headers of the operation's `status` answer, or undefined where it declares none worth writing. */
export function compileAnswerHeaders(operation: IHttpOperation, status: number): AnswerHeaders | undefined {
  const response = declaredResponse(operation, status);
  const written: Written[] = [];
  for (const header of response?.headers ?? []) {
    const name = header.name.toLowerCase();
    if (name === 'content-type' || name === 'content-length') continue;
    const meaning = headerMeaning(name);
    const fallback = header.required === true ? valueMaker(header.schema ?? { type: 'string' }, { direction: 'response', fresh: true }) : undefined;
    if (meaning !== undefined || fallback !== undefined) written.push({ name, meaning, fallback });
  }
  if (written.length === 0) return undefined;
  return async (facts) => {
    const headers: Record<string, string> = {};
    for (const { name, meaning, fallback } of written) {
      const value = meaning === undefined ? undefined : await known(meaning, facts);
      if (value !== undefined) headers[name] = value;
      else if (fallback !== undefined) headers[name] = headerText(fallback());
    }
    return headers;
  };
}

/**
 * The answer with the headers its status declares; where none is declared, the plain answer, with
 * no work per request.
 */
export function compileDeclaredAnswer(operation: IHttpOperation, success: SuccessAnswer): (body: string, facts: AnswerFacts) => Outcome | Promise<Outcome> {
  const declared = compileAnswerHeaders(operation, success.status);
  if (declared === undefined) return (body) => answer(success.status, success.headers, body);
  return (body, facts) => declared(facts).then((headers) => answer(success.status, { ...success.headers, ...headers }, body));
}

/** A strong entity tag (RFC 9110) of an item's stored fields: equal fields, equal tag. */
export function entityTag(item: JsonValue): string {
  return `"${createHash('sha256').update(toJsonText(item)).digest('base64url').slice(0, 27)}"`;
}

async function known(meaning: HeaderMeaning, facts: AnswerFacts): Promise<string | undefined> {
  switch (meaning) {
    case 'location':
      return facts.location;
    case 'etag':
      return facts.item === undefined ? undefined : entityTag(facts.item);
    case 'total':
      return facts.total === undefined ? undefined : String(await facts.total());
    case 'link': {
      const pages = await facts.pages?.();
      const links = RELATIONS.flatMap((rel) => (pages?.[rel] === undefined ? [] : [`<${pages[rel]}>; rel="${rel}"`]));
      return links.length === 0 ? undefined : links.join(', ');
    }
    case 'next':
      return (await facts.pages?.())?.next;
  }
}

/** A value as a header's text: a string as it is, anything else as JSON. */
export function headerText(value: JsonValue): string {
  return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

/** A Host a URL can be made of: a name or an IPv4 address, or an IPv6 literal, and a port. */
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * A page's URL: the request's, with `name` set to `value` (removed where undefined); absolute where
 * the Host is a host (a browser app on another origin follows it as it is), else relative: a Host
 * the client made up never reaches the header.
 */
export function pageUrl(host: string | undefined, path: string, queryText: string | undefined, name: string, value: string | undefined): string {
  const query = new URLSearchParams(queryText ?? '');
  if (value === undefined) query.delete(name);
  else query.set(name, value);
  const search = query.toString();
  return `${host !== undefined && HOST.test(host) ? `http://${host}` : ''}${path}${search === '' ? '' : `?${search}`}`;
}
