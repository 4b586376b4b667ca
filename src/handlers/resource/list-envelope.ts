/**
 * A list envelope's answer (`{"articles": [...], "articlesCount": 12}`, `{"data": [...], "meta":
 * {"total": 12, "limit": 10, "offset": 0}}`): the page of items in its property, and each sibling
 * the envelope declares filled truthfully: the count is the filtered list's total (not the
 * page's), limit/offset/page the page this answer is, pages the number of such pages, next the
 * cursor of the page after, more whether one follows. Other required siblings get made values.
 */
import type { JsonValue } from '../../core/json/exact-json.js';
import type { ListSibling, SiblingPath } from '../../core/schema/envelope.js';
import { valueMaker } from './fill.js';
import { jsonText, type ListShape } from './shape.js';

/** What one list answer knows about its page; the total is counted only when a sibling needs it. */
export interface PageFacts {
  readonly shown: number;
  readonly limit: number;
  readonly offset: number;
  readonly page: number;
  readonly next: string | undefined;
  readonly total: () => Promise<number>;
}

export type EnvelopeWriter = (array: string, facts: PageFacts) => Promise<string>;

const NEEDS_TOTAL: ReadonlySet<ListSibling> = new Set(['count', 'pages', 'more']);

export function compileEnvelopeWriter(layout: ListShape & { readonly arrayProperty: string }): EnvelopeWriter {
  const siblings = Object.entries(layout.siblings) as [ListSibling, SiblingPath][];
  const others = layout.otherRequired.map(([path, schema]) => [path, valueMaker(schema)] as const);
  const needsTotal = siblings.some(([role]) => NEEDS_TOTAL.has(role));
  return async (array, facts) => {
    const total = needsTotal ? await facts.total() : 0;
    const top = new Map<string, string>([[layout.arrayProperty, array]]);
    const inner = new Map<string, Map<string, string>>();
    const put = (path: SiblingPath, text: string) => {
      if (path.length === 1) {
        top.set(path[0], text);
        return;
      }
      const [container, name] = path;
      const fields = inner.get(container) ?? new Map<string, string>();
      fields.set(name, text);
      inner.set(container, fields);
      if (!top.has(container)) top.set(container, '');
    };
    for (const [role, path] of siblings) {
      const value = siblingValue(role, facts, total);
      if (value !== undefined) put(path, jsonText(value));
    }
    for (const [path, make] of others) put(path, jsonText(make()));
    let text = '';
    for (const [name, value] of top) {
      const fields = inner.get(name);
      const written = fields === undefined ? value : `{${[...fields].map(([key, field]) => `${JSON.stringify(key)}:${field}`).join(',')}}`;
      text += `${text === '' ? '{' : ','}${JSON.stringify(name)}:${written}`;
    }
    return `${text}}`;
  };
}

function siblingValue(role: ListSibling, facts: PageFacts, total: number): JsonValue | undefined {
  switch (role) {
    case 'count':
      return total;
    case 'limit':
      return facts.limit;
    case 'offset':
      return facts.offset;
    case 'page':
      return facts.page;
    case 'pages':
      return facts.limit === 0 ? 0 : Math.ceil(total / facts.limit);
    case 'next':
      // No page after this one: the cursor is left out (undefined), not made up.
      return facts.next;
    case 'more':
      return facts.next !== undefined || facts.offset + facts.shown < total;
  }
}
