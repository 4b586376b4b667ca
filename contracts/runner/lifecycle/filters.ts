/**
 * A list filtered by a query parameter that names a property (`?tags=a&tags=b` keeps the items whose
 * tag is a or b): asked with the values of the items this sequence holds, two where the parameter
 * takes several. Every listed item must match, and every held item that matches must be listed
 * (list-filter-honoured judges it).
 */
import { withPayload } from '../../generators/request-cases/body-encoding.js';
import type { Operation } from '../../../src/core/openapi/load-document.js';
import type { Resource } from '../../../src/core/resources/model.js';
import { filterOn } from '../../../src/core/resources/list-parameters.js';
import { arrayItems } from '../../../src/core/schema/properties.js';
import { typeOf } from '../../../src/core/schema/types.js';
import { randomBytes } from 'node:crypto';
import { isJsonObject, withKey, type JsonValue } from '../../generators/json-value.js';
import { describeSchema, type JsonSchema } from '../../generators/schema-arbitrary.js';
import type { RequestCase } from '../case-source.js';
import { endIfBroken, record } from '../sequence.js';
import { send } from '../send.js';
import { describeItem, firstCreatedAt, itemOf, listLimits, listPath, pagingOf, stateFacts, withItem, type Command } from './steps.js';

/** The first filter of the list: its parameter, the property, whether it takes several values, and whether it keeps arrays containing the value. */
function filterOf(resource: Resource, operation: Operation): { parameter: string; property: string; many: boolean; contains: boolean } | undefined {
  for (const parameter of resource.list?.filters ?? []) {
    const { property, contains } = filterOn(resource.list, parameter);
    const schema = operation.request?.query?.find((q) => q.name === parameter)?.schema;
    return { parameter, property, many: typeOf(schema) === 'array', contains };
  }
  return undefined;
}

/** `oneValue`: ask for the first held value only, so the other held item must be left out (a filter ignored shows with no other items in the target). */
export function listFiltered(resource: Resource, operation: Operation, template: RequestCase, oneValue = false): Command {
  const filter = filterOf(resource, operation);
  const valueOf = (payload: JsonValue | undefined): string | undefined => {
    const item = itemOf(resource, payload, 'request');
    const held = isJsonObject(item) && filter !== undefined ? item[filter.property] : undefined;
    // A contains filter asks for one of the array's strings: its first.
    const value = filter?.contains === true && Array.isArray(held) ? held.find((inner) => typeof inner === 'string' && inner !== '') : held;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  /** Whether a created item matches: its value is one asked for, or (contains) its array holds one. */
  const holds = (payload: JsonValue | undefined, values: readonly string[]): boolean => {
    const item = itemOf(resource, payload, 'request');
    const held = isJsonObject(item) && filter !== undefined ? item[filter.property] : undefined;
    return filter?.contains === true && Array.isArray(held)
      ? held.some((inner) => typeof inner === 'string' && values.includes(inner))
      : values.includes(valueOf(payload) as string);
  };
  const paging = pagingOf(resource, operation);
  const { sent: limit, page } = listLimits(paging, { kind: 'complete' });
  return {
    check: (model) => filter !== undefined && model.held.some((item) => item.mark !== undefined && valueOf(item.create.payload) !== undefined),
    async run(model, real) {
      if (filter === undefined) return;
      const valued = model.held.filter((item) => item.mark !== undefined && item.expected.length === 0 && valueOf(item.create.payload) !== undefined);
      const values = [...new Set(valued.map((item) => valueOf(item.create.payload) as string))].slice(0, filter.many && !oneValue ? 2 : 1);
      if (values.length === 0) return;
      real.step += 1;
      const base = listPath(operation, template, paging, { kind: 'complete' }, firstCreatedAt(model));
      const query = values.map((value) => `${encodeURIComponent(filter.parameter)}=${encodeURIComponent(value)}`).join('&');
      const path = `${base}${base.includes('?') ? '&' : '?'}${query}`;
      const matching = valued.filter((item) => holds(item.create.payload, values));
      const because = `asked for ${filter.property} ${values.map((v) => JSON.stringify(v)).join(' or ')}; held ${matching.map(describeItem).join(', ')}`;
      const facts = stateFacts(real, model, 'list-filtered', because, {
        ...(limit === undefined ? (page === undefined ? {} : { page }) : { limit }),
        filter: {
          parameter: filter.parameter,
          property: filter.property,
          ...(filter.contains ? { contains: true } : {}),
          values,
          matching: matching.flatMap((item) => (item.mark === undefined ? [] : [item.mark])),
        },
      });
      const exchange = await send(real.env, { ...template, path }, facts, `step ${real.step}: list ${resource.name} filtered by ${filter.parameter}`, [
        ...real.sent,
      ]);
      endIfBroken(record(real, exchange === undefined ? [] : [exchange], operation));
    },
    toString: () => (oneValue ? 'listFiltered(one value)' : 'listFiltered()'),
  };
}

/**
 * The create template with a value of its own in the property a list filter names, where that
 * property is plain text (no pattern, enum, format, room for 8 characters): the walk's two items then
 * have two values to filter by. Any other template is sent as drawn.
 */
export function withFilterValue(resource: Resource, template: RequestCase): RequestCase {
  const parameter = resource.list?.filters[0];
  if (parameter === undefined) return template;
  const { property, contains } = filterOn(resource.list, parameter);
  const item = itemOf(resource, template.payload, 'request');
  if (resource.createSchema === undefined || !isJsonObject(template.payload) || !isJsonObject(item)) return template;
  const declared = describeSchema(resource.createSchema as JsonSchema).properties.get(property);
  // A contains filter's value goes in the array, as its one string.
  const schema = contains && declared !== undefined ? (arrayItems(declared) as JsonSchema | undefined) : declared;
  if (schema === undefined) return template;
  const facts = describeSchema(schema);
  const plain =
    facts.types?.has('string') === true &&
    facts.enumValues === undefined &&
    facts.patterns.length === 0 &&
    (facts.maxLength ?? 8) >= 8 &&
    (schema as { format?: unknown }).format === undefined;
  if (!plain) return template;
  const value = `f-${randomBytes(3).toString('hex')}`;
  const payload = withItem(resource, template.payload, withKey(item, property, contains ? [value] : value));
  return withPayload(template, payload);
}
