import { STATUS_CODES } from '../core/http/headers.js';
import type { JournalEntry, JournalMessage } from '../journal/journal.js';
import { cookiePairs } from '../core/http/headers.js';

/** An HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as far as a journal fills it. */
export interface Har {
  readonly log: {
    readonly version: '1.2';
    readonly creator: HarCreator;
    readonly entries: readonly HarEntry[];
  };
}

export interface HarCreator {
  readonly name: string;
  readonly version: string;
}

export interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  /** Total milliseconds: the sum of the timings. */
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  // HAR custom fields (underscore-prefixed) carry what the journal knows beyond HTTP.
  readonly _sequence: number;
  readonly _tenant: string;
  readonly _operation?: string;
  readonly _validation?: JournalEntry['validation'];
  readonly _fault?: string;
}

export interface HarRequest {
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  /** From the Cookie header, values masked as the journal masks them. */
  readonly cookies: readonly HarNameValue[];
  readonly headers: readonly HarNameValue[];
  readonly queryString: readonly HarNameValue[];
  readonly postData?: { readonly mimeType: string; readonly text: string; readonly comment?: string };
  readonly headersSize: -1;
  readonly bodySize: number;
}

export interface HarResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  /** From Set-Cookie, values masked. */
  readonly cookies: readonly HarNameValue[];
  readonly headers: readonly HarNameValue[];
  readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly comment?: string };
  readonly redirectURL: string;
  readonly headersSize: -1;
  readonly bodySize: number;
  readonly comment?: string;
}

/** The stand-in speaks HTTP/1.1 only (node:http without HTTP/2), so every exchange is HTTP/1.1. */
const HTTP_VERSION = 'HTTP/1.1';

/** The journal's entries as a HAR log, in the journal's order (oldest first). */
export function journalToHar(entries: readonly JournalEntry[], creator: HarCreator): Har {
  return { log: { version: '1.2', creator: { name: creator.name, version: creator.version }, entries: entries.map(harEntry) } };
}

function harEntry(entry: JournalEntry): HarEntry {
  return {
    startedDateTime: entry.time,
    time: entry.durationMs,
    request: harRequest(entry),
    response: harResponse(entry),
    cache: {},
    // The journal measures arrival to answer sent; all of it is the server's, so "wait".
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    _sequence: entry.sequence,
    _tenant: entry.tenant,
    ...(entry.operation !== undefined ? { _operation: entry.operation } : {}),
    ...(entry.validation !== undefined ? { _validation: entry.validation } : {}),
    ...(entry.fault !== undefined ? { _fault: entry.fault } : {}),
  };
}

function harRequest(entry: JournalEntry): HarRequest {
  const { request } = entry;
  // HAR wants an absolute URL; the Host header says which one the client used. The journal's
  // query is already masked, so the URL and queryString show no credential.
  const url = `http://${request.headers.host ?? 'localhost'}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`;
  return {
    method: entry.method,
    url,
    httpVersion: HTTP_VERSION,
    cookies: cookiePairs(request.headers.cookie),
    headers: nameValues(request.headers),
    queryString: [...new URLSearchParams(entry.query)].map(([name, value]) => ({ name, value })),
    ...(request.bodySize > 0
      ? { postData: { mimeType: request.headers['content-type'] ?? 'application/octet-stream', text: request.body, ...truncation(request) } }
      : {}),
    headersSize: -1,
    bodySize: request.bodySize,
  };
}

function harResponse(entry: JournalEntry): HarResponse {
  const { response } = entry;
  const dropped = entry.status === 0;
  return {
    status: entry.status,
    statusText: dropped ? '' : (STATUS_CODES[entry.status] ?? ''),
    httpVersion: HTTP_VERSION,
    cookies: setCookiePairs(response.headers['set-cookie']),
    headers: nameValues(response.headers),
    content: {
      size: response.bodySize,
      // "x-unknown" is what browsers write when an answer names no type.
      mimeType: response.headers['content-type'] ?? 'x-unknown',
      ...(response.bodySize > 0 ? { text: response.body } : {}),
      ...truncation(response),
    },
    redirectURL: response.headers.location ?? '',
    headersSize: -1,
    bodySize: response.bodySize,
    ...(dropped ? { comment: `no answer: a fault (${entry.fault ?? 'reset or empty'}) closed the connection` } : {}),
  };
}

/** The journal joins Set-Cookie lines with ", " (masked `name=***; attributes`); each line's first pair is its cookie. */
function setCookiePairs(header: string | undefined): HarNameValue[] {
  if (header === undefined) return [];
  return header.split(/, (?=[^;,=\s]+=)/).flatMap((line) => cookiePairs(line.split(';')[0]));
}

function nameValues(headers: Readonly<Record<string, string>>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function truncation(message: JournalMessage): { comment?: string } {
  return message.truncated ? { comment: `cut: the journal keeps only the start of this ${message.bodySize}-byte body` } : {};
}
