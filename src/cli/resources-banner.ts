/**
 * The start banner's account of the resource model: what was inferred (or settled) for each
 * resource, and the notes on what was not, each with how to settle it. Plain lines; serve.ts
 * makes them printable.
 */
import type { IdentifierType, Resource, ResourceModel, ServerField, ServerFieldKind } from '../core/resources/model.js';
import { filterOn } from '../core/resources/list-parameters.js';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN } from '../core/json/int64.js';
import { replaceKindOf, type ReplaceKind } from '../core/conformance/replace-kind.js';
import type { Operation } from '../core/openapi/operation.js';

/** With the document's `operations`, each PUT says what it does to the item (core/conformance/replace-kind.ts). */
export function resourceLines(model: ResourceModel, operations: readonly Operation[] = []): string[] {
  const lines = model.resources.length === 0 ? ["resources: none inferred (settle them with the config file's resources or x-plantstore)"] : ['resources:'];
  for (const resource of model.resources) lines.push(...describe(resource, replaceKindOf(resource, operations)));
  if (model.notes.length > 0) lines.push('resource notes:', ...model.notes.map((note) => `  ${note.level} ${note.subject}: ${note.message}`));
  return lines;
}

/** What a frontend developer needs to know of a PUT: whether what it leaves out is kept. */
const REPLACE_WORDS: Readonly<Record<ReplaceKind, string>> = {
  replace: 'the body becomes the whole item',
  merge: 'updates only the properties sent; the others stay',
};

function describe(resource: Resource, replace: ReplaceKind | undefined): string[] {
  const { identifier, list } = resource;
  const paths = resource.itemPath === undefined ? resource.collectionPath : `${resource.collectionPath} and ${resource.itemPath}`;
  const where = identifier.parameter === undefined ? '' : ` (path {${identifier.parameter}})`;
  const lines = [
    `  ${resource.name}: ${paths} (${resource.source})`,
    `    id: ${identifier.property}${where}, ${identifier.assignedBy === 'either' ? 'client-given or else server-assigned' : `${identifier.assignedBy}-assigned`}, ${typeText(identifier.type)}`,
    `    operations: ${Object.entries(resource.operations)
      .map(([role, operation]) => `${role} ${operation.name}`)
      .join(', ')}${resource.update === undefined ? '' : ` (update: ${resource.update})`}`,
  ];
  if (replace !== undefined) lines.push(`    replace (PUT): ${REPLACE_WORDS[replace]}`);
  const envelope = envelopeText(resource);
  if (envelope !== undefined) lines.push(`    envelope: ${envelope}`);
  if (list !== undefined) {
    const paging = (['limit', 'offset', 'page', 'cursor'] as const).flatMap((key) => (list[key] === undefined ? [] : [`${key} ?${list[key]}`]));
    const filters = list.filters.map((name) => {
      const { property, contains } = filterOn(list, name);
      return contains ? `?${name} (in ${property})` : property === name ? `?${name}` : `?${name} (${property})`;
    });
    const parts = [
      ...paging,
      ...(filters.length > 0 ? [`filters ${filters.join(', ')}`] : []),
      ...(list.itemsProperty === undefined ? [] : [`items in "${list.itemsProperty}"`]),
      ...Object.entries(list.siblings ?? {}).map(([role, path]) => `${role} in "${path.join('.')}"`),
    ];
    lines.push(`    list: ${parts.length > 0 ? parts.join(', ') : 'everything, unpaged'}`);
  }
  if (resource.serverFields !== undefined && resource.serverFields.length > 0) {
    lines.push(`    server-made: ${resource.serverFields.map(fieldText).join(', ')}`);
  }
  if (resource.webhooks.length > 0) lines.push(`    webhooks: ${resource.webhooks.join(', ')}`);
  return lines;
}

/** 'slug (from title)', 'createdAt (created time)', 'code (placeholder: why)'. */
function fieldText(field: ServerField): string {
  const how = field.kind === 'slug' ? `slug from ${field.from ?? '?'}` : FIELD_WORDS[field.kind];
  const why = field.note === undefined ? '' : field.note === 'config' || field.note === 'extension' ? `, by ${field.note}` : `: ${field.note}`;
  return `${field.property} (${how}${why})`;
}

const FIELD_WORDS: Readonly<Record<Exclude<ServerFieldKind, 'slug'>, string>> = {
  'created-time': 'created time',
  'updated-time': 'updated time',
  counter: 'counter, 0',
  flag: 'flag, false',
  default: "the schema's value",
  placeholder: 'placeholder',
};

/** The item envelope per direction: one property both ways, or each side's own. */
function envelopeText({ envelope }: Resource): string | undefined {
  if (envelope === undefined) return undefined;
  if (envelope.request !== undefined && envelope.request === envelope.answer) return `items in {"${envelope.request}": {...}}, requests and answers`;
  const sides = [
    ...(envelope.request === undefined ? [] : [`requests in {"${envelope.request}": {...}}`]),
    ...(envelope.answer === undefined ? [] : [`answers in {"${envelope.answer}": {...}}`]),
  ];
  return sides.join(', ');
}

function typeText(type: IdentifierType): string {
  if (type.kind !== 'integer') return type.kind;
  if (type.minimum === INT64_MIN && type.maximum === INT64_MAX) return 'int64';
  if (type.minimum === INT32_MIN && type.maximum === INT32_MAX) return 'int32';
  return `integer ${type.minimum}..${type.maximum}`;
}
