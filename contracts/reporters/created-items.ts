/**
 * The items a finding's steps created, and where the later steps name them: the one place that
 * knows it, for both the printed curl steps (finding.ts: shell variables "$ID1") and the regression
 * files (regressions.ts: "{{ID1}}"). A step that created an item says so (SentRequest.creates,
 * set by the lifecycle's create); nothing here reads labels.
 */
import type { SentRequest } from '../report.js';

/** An item one step created, named ID1, ID2… in the order of the steps. */
export interface CreatedItem {
  /** "ID1": the variable that stands for its id. */
  readonly name: string;
  /** The index of the step that created it. */
  readonly at: number;
  /** The id's property in the bodies and answers, e.g. "id". */
  readonly property: string;
  /** The id as sent or assigned in the run: an integer's digits or a string. */
  readonly id: string;
  /** 'client': the step sent the id (a replay draws a fresh one); 'server': the step's answer holds it. */
  readonly assignedBy: 'client' | 'server';
}

/** Where a variable goes in a step's URL or body; replaced by the reporters with what names it there. */
export function placeholder(item: Pick<CreatedItem, 'name'>): string {
  return `{{${item.name}}}`;
}

/** The created items, in order: each step's `creates`, named by its place among them. */
export function createdItems(requests: readonly SentRequest[]): CreatedItem[] {
  const items: CreatedItem[] = [];
  requests.forEach((request, at) => {
    const creates = request.creates;
    if (creates === undefined) return;
    items.push({ name: `ID${items.length + 1}`, at, property: creates.property, id: creates.id, assignedBy: creates.assignedBy });
  });
  return items;
}

/** The id as its JSON value: digits, or a quoted string. */
export function idJson(item: Pick<CreatedItem, 'id'>): string {
  return isInteger(item.id) ? item.id : JSON.stringify(item.id);
}

/** The placeholder as the JSON value it stands for: bare for an integer id, quoted for a string. */
export function placeholderJson(item: Pick<CreatedItem, 'id' | 'name'>): string {
  return isInteger(item.id) ? placeholder(item) : `"${placeholder(item)}"`;
}

/**
 * The steps with each created id replaced by its placeholder where it names that item: in the
 * URL's path segments and as the id property's value in JSON bodies, in every step after the
 * create, and in the create itself when the client sent the id (a server's id is not in its create).
 * Not in the target (`base`, e.g. http://host/api/v1) or, without it, the origin: a port or base path is never an id.
 */
export function withPlaceholders<T extends SentRequest>(requests: readonly T[], items: readonly CreatedItem[], base?: string): T[] {
  return requests.map((request, index) => {
    let { url, body } = request;
    for (const item of items) {
      if (index < item.at || (index === item.at && item.assignedBy === 'server')) continue;
      url = withinPath(url, base, (path) => path.replace(inPath(item), placeholder(item)));
      body = body?.replace(inBody(item), (_whole, prefix: string) => `${prefix}${placeholderJson(item)}`);
    }
    return url === request.url && body === request.body ? request : { ...request, url, ...(body === undefined ? {} : { body }) };
  });
}

/** The URL with what follows the target (or the origin) changed by `change`. */
function withinPath(url: string, base: string | undefined, change: (path: string) => string): string {
  const target = base?.replace(/\/+$/, '');
  const kept = target !== undefined && url.startsWith(target) ? target : (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '');
  return kept + change(url.slice(kept.length));
}

/** The id as a whole path segment (before a "/", "?", "#" or the end). */
function inPath(item: CreatedItem): RegExp {
  return new RegExp(`(?<=/)${escaped(encodeURIComponent(item.id))}(?=[/?#]|$)`, 'g');
}

/** The id as the value of its property in JSON text (not the start of a longer number). */
function inBody(item: CreatedItem): RegExp {
  return new RegExp(`(${escaped(JSON.stringify(item.property))}\\s*:\\s*)${escaped(idJson(item))}(?![\\d.eE])`, 'g');
}

function isInteger(id: string): boolean {
  return /^-?\d+$/.test(id);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
