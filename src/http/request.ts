import type { IncomingHttpHeaders } from 'node:http';
import type { RequestInput } from '../validation/request-validator.js';
import { flattenHeaders } from '../core/http/headers.js';

/**
 * The request target as a path and query. RFC 9112 §3.2.2: a server must accept the absolute form
 * (http://host/plants) too, which proxies and some clients send.
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

export function parseQuery(query: string): Record<string, string | string[]> {
  if (query === '') return {};
  // No prototype: "?__proto__=x" is a parameter like any other.
  const result: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(query)) {
    const previous = Object.hasOwn(result, name) ? result[name] : undefined;
    result[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return result;
}

/**
 * The request for validation and handlers. Its headers and query become records only when read
 * (prism's parameter check and mocker read them; the stateful createPlant never does). A class,
 * because V8 keeps prototype getters fast where getters in object literals are not.
 */
export class ArrivedRequest implements RequestInput {
  #headers: Record<string, string> | undefined;
  #query: Record<string, string | string[]> | undefined;
  readonly contentType: string | undefined;

  constructor(
    private readonly raw: IncomingHttpHeaders,
    readonly method: string,
    readonly path: string,
    private readonly queryText: string,
    readonly body: Buffer,
  ) {
    this.contentType = raw['content-type'];
  }

  get headers(): Record<string, string> {
    return (this.#headers ??= flattenHeaders(this.raw));
  }

  get query(): Record<string, string | string[]> {
    return (this.#query ??= parseQuery(this.queryText));
  }
}

/** A header's value as one line: repeated headers joined with commas (RFC 9110 §5.3). */
