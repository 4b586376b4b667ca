/**
 * Which property identifies a resource's items, and who assigns it: matched by schema type to the
 * item path's parameter (a name only breaks a tie), the create body first (client-assigned), then
 * the create or read response (server-assigned), then an optional property of the create body
 * (either: the client may give it, else the server assigns it). See docs/resources.md, "What is inferred".
 */
import type { AssignedBy, Identifier, InferenceNote } from './model.js';
import { fitsParameter, type ObjectShape, type Schema } from './schema-shape.js';
import { identifierType } from '../schema/identifier.js';
import { formatOf, typeOf } from '../schema/types.js';
import { saidByAuthor } from '../schema/author-keywords.js';
import { isCountName, isOwnKey, isReference, ownNames } from './key-names.js';

export interface IdentifierFacts {
  readonly collectionPath: string;
  /** The item path's parameter, when there is an item path. */
  readonly parameter?: { readonly name: string; readonly schema: unknown };
  /** The create operation's JSON body, when there is one. */
  readonly create?: ObjectShape;
  /** One item as the document answers it: the create response, else the read response. */
  readonly answer?: ObjectShape;
  /** Restricts the search to one side (an override's `assignedBy`). */
  readonly assignedBy?: AssignedBy;
  /** The property the bodies wrap the item in, when they seem to and no envelope was settled: the advice names it. */
  readonly envelopeHint?: string;
}

export type IdentifierFinding =
  { readonly identifier: Identifier; readonly notes: readonly InferenceNote[] } | { readonly identifier?: undefined; readonly notes: readonly InferenceNote[] };

export function findIdentifier(facts: IdentifierFacts): IdentifierFinding {
  return facts.parameter === undefined ? withoutItemPath(facts) : withItemPath(facts, facts.parameter);
}

function withItemPath(facts: IdentifierFacts, parameter: { readonly name: string; readonly schema: unknown }): IdentifierFinding {
  const own = ownNames(facts.collectionPath, parameter.name);
  // A key of another thing (a sink's destination_uuid) is a reference, and a property of a few fixed values
  // (a destination's type) names a kind: neither tells this item apart. The property the parameter names is the item's.
  const fits = (name: string, schema: Schema) =>
    fitsParameter(parameter.schema, schema) && (name === parameter.name || (!isReference(name, own) && !takesFixedValues(schema)));
  // either last: an optional id is settled only where neither a required one nor a server-added one is found.
  const sides: [AssignedBy, ReadonlyMap<string, Schema>][] = [
    ['client', clientCandidates(facts.create, fits)],
    ['server', serverCandidates(facts.create, facts.answer, fits)],
    ['either', optionalCandidates(facts.create, facts.answer, fits)],
  ];
  // A property the parameter names on one side only wins over the side order: {slug} is the answer's
  // slug, not the create body's one string title (the Conduit style: the server makes the slug). Named
  // exactly, else by the parameter's last word where no side has it exactly: Box's {webhook_id} is the
  // answer's id, not the create body's one required string, the address the webhook calls.
  const allowedSides = sides.filter(([side]) => allowed(side, facts.assignedBy));
  const exactly = allowedSides.flatMap(([side, candidates]) => (candidates.has(parameter.name) ? [[side, parameter.name] as const] : []));
  const byLastWord =
    exactly.length > 0 ? exactly : allowedSides.flatMap(([side, candidates]) => namedBy(candidates, side, (name) => isLastWord(name, parameter.name)));
  // Else a key qualified as the parameter is: DigitalOcean's {logsink_id} is the answer's sink_id, not the create body's sink_name.
  const named =
    byLastWord.length > 0 ? byLastWord : allowedSides.flatMap(([side, candidates]) => namedBy(candidates, side, (name) => isOwnKey(name, parameter.name)));
  const [only] = named;
  const onlySide = only === undefined ? undefined : sides.find(([side]) => side === only[0]);
  const earlier = onlySide === undefined ? [] : sides.slice(0, sides.indexOf(onlySide));
  if (
    only !== undefined &&
    onlySide !== undefined &&
    named.length === 1 &&
    earlier.some(([side, candidates]) => allowed(side, facts.assignedBy) && candidates.size > 0)
  ) {
    const [side, property] = only;
    const identifier = {
      parameter: parameter.name,
      property,
      assignedBy: sideOf(side, facts.assignedBy),
      type: identifierType(onlySide[1].get(property)),
    };
    return {
      identifier,
      notes: [
        info(
          facts,
          `${describe(parameter)} names "${property}", a property ${where(identifier.assignedBy)}; chosen by that name over the other fitting properties`,
        ),
      ],
    };
  }
  for (const [side, candidates] of sides) {
    // An override of "client" takes an optional property too: the user says the client always gives it.
    const assignedBy = sideOf(side, facts.assignedBy);
    if (facts.assignedBy !== undefined && facts.assignedBy !== assignedBy) continue;
    const names = [...candidates.keys()];
    if (names.length === 0) continue;
    const chosen = names.length === 1 ? names[0] : byName(names, parameter.name);
    if (chosen === undefined) {
      return { notes: [ambiguous(facts, `${describe(parameter)} fits several properties ${where(assignedBy)}: ${names.join(', ')}`, names)] };
    }
    const identifier = { parameter: parameter.name, property: chosen, assignedBy, type: identifierType(candidates.get(chosen)) };
    const notes =
      names.length === 1
        ? []
        : [info(facts, `${describe(parameter)} fits ${names.join(', ')} ${where(assignedBy)}; "${chosen}" was chosen by the parameter's name`)];
    return { identifier, notes };
  }
  return {
    notes: [
      ambiguous(
        facts,
        `${describe(parameter)} fits no property ${facts.assignedBy ? where(facts.assignedBy) : 'of the create body, nor one the create or read response adds'}`,
        [],
      ),
    ],
  };
}

function sideOf(side: AssignedBy, override: AssignedBy | undefined): AssignedBy {
  return side === 'either' && override === 'client' ? 'client' : side;
}

function allowed(side: AssignedBy, override: AssignedBy | undefined): boolean {
  return override === undefined || override === sideOf(side, override);
}

/** No item path (the seed Plant Store: POST /plants only): the create body's one required integer or uuid property, client-assigned. */
function withoutItemPath(facts: IdentifierFacts): IdentifierFinding {
  if (facts.assignedBy === 'server' || facts.assignedBy === 'either') return { notes: [] };
  const own = ownNames(facts.collectionPath, undefined);
  // No parameter to match: a count (`max_tokens`) or another thing's key (`transfer_id` in /accept) is no item's identifier.
  const candidates = clientCandidates(
    facts.create,
    (name, schema) => ((typeOf(schema) === 'integer' && !isCount(schema) && !isCountName(name)) || formatOf(schema) === 'uuid') && !isReference(name, own),
  );
  const names = [...candidates.keys()];
  const [only] = names;
  if (only === undefined) return { notes: [] };
  if (names.length > 1) {
    return {
      notes: [ambiguous(facts, `there is no item path, and the create body has several required integer or uuid properties: ${names.join(', ')}`, names)],
    };
  }
  const identifier: Identifier = { property: only, assignedBy: 'client', type: identifierType(candidates.get(only)) };
  return {
    identifier,
    notes: [
      info(
        facts,
        `there is no item path ${facts.collectionPath}/{…}: the create body's only required integer or uuid property, "${only}", identifies an item, assigned by the client`,
      ),
    ],
  };
}

/**
 * An integer its author bounded above (DigitalOcean's image generation `n`, 1 to 10) says how many,
 * not which: as an identifier it would refuse the second request asking for as many as the first.
 */
function isCount(schema: Schema): boolean {
  return (schema.maximum !== undefined && saidByAuthor(schema, 'maximum')) || typeof schema.exclusiveMaximum === 'number';
}

/** Properties the client must send that the item path's parameter can carry: required, not readOnly. */
function clientCandidates(create: ObjectShape | undefined, fits: (name: string, schema: Schema) => boolean): ReadonlyMap<string, Schema> {
  if (create === undefined) return new Map();
  return pick(create.properties, (name, schema) => create.required.has(name) && !create.readOnly.has(name) && fits(name, schema));
}

/**
 * Properties the client may send or leave out (optional, not readOnly): given, it is the id; left out, the server
 * assigns one, which its answer must show (DigitalOcean's evaluation runs answer only `evaluation_run_uuids`: not `run_name`).
 */
function optionalCandidates(
  create: ObjectShape | undefined,
  answer: ObjectShape | undefined,
  fits: (name: string, schema: Schema) => boolean,
): ReadonlyMap<string, Schema> {
  if (create === undefined) return new Map();
  const shown = (name: string) => answer === undefined || answer.properties.size === 0 || answer.properties.has(name);
  return pick(create.properties, (name, schema) => !create.required.has(name) && !create.readOnly.has(name) && shown(name) && fits(name, schema));
}

/** Properties the answer adds to what the client sends (or marks readOnly): the server assigns them. */
function serverCandidates(
  create: ObjectShape | undefined,
  answer: ObjectShape | undefined,
  fits: (name: string, schema: Schema) => boolean,
): ReadonlyMap<string, Schema> {
  if (answer === undefined) return new Map();
  const sent = (name: string) => create?.properties.has(name) === true;
  const readOnly = (name: string) => answer.readOnly.has(name) || create?.readOnly.has(name) === true;
  return pick(answer.properties, (name, schema) => (!sent(name) || readOnly(name)) && fits(name, schema));
}

/** A property of an `enum` or a `const`: its values are a few kinds, not one per item. */
function takesFixedValues(schema: Schema): boolean {
  return Array.isArray(schema.enum) || Object.hasOwn(schema, 'const');
}

function pick(properties: ReadonlyMap<string, Schema>, keep: (name: string, schema: Schema) => boolean): ReadonlyMap<string, Schema> {
  return new Map([...properties].filter(([name, schema]) => keep(name, schema)));
}

/** The one candidate `names` picks (the parameter's last word: `webhook_id`, `webhookId` → `id`), as [side, name]; none when none or several. */
function namedBy(candidates: ReadonlyMap<string, Schema>, side: AssignedBy, names: (name: string) => boolean): (readonly [AssignedBy, string])[] {
  const found = [...candidates.keys()].filter(names);
  return found.length === 1 ? [[side, found[0] as string]] : [];
}

/** Whether `name` is the parameter's last word: its end, after a separator or where a capital starts it. */
function isLastWord(name: string, parameter: string): boolean {
  if (name.length === 0 || name.length >= parameter.length || !parameter.toLowerCase().endsWith(name.toLowerCase())) return false;
  const start = parameter.length - name.length;
  const before = parameter[start - 1] as string;
  const first = parameter[start] as string;
  return before === '_' || before === '-' || before === '.' || (first !== first.toLowerCase() && before === before.toLowerCase());
}

/** The tie-break: the property named as the parameter, else the one the parameter's name ends with (petId → id). */
function byName(names: readonly string[], parameter: string): string | undefined {
  const lower = parameter.toLowerCase();
  for (const test of [
    (name: string) => name === parameter,
    (name: string) => name.toLowerCase() === lower,
    (name: string) => lower.endsWith(name.toLowerCase()),
  ]) {
    const matches = names.filter(test);
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) return undefined;
  }
  return undefined;
}

function describe(parameter: { readonly name: string; readonly schema: unknown }): string {
  const format = formatOf(parameter.schema);
  const type = typeOf(parameter.schema) ?? 'untyped';
  return `the item path's parameter {${parameter.name}} (${format ? `${type}, ${format}` : type})`;
}

function where(assignedBy: AssignedBy): string {
  if (assignedBy === 'either') return 'that the create body may leave out (given by the client, else server-assigned)';
  return assignedBy === 'client' ? 'of the create body (client-assigned)' : 'that the create or read response adds (server-assigned)';
}

function info(facts: IdentifierFacts, message: string): InferenceNote {
  return { subject: facts.collectionPath, level: 'info', message };
}

/** Ambiguity, with the exact words that settle it. */
function ambiguous(facts: IdentifierFacts, cause: string, candidates: readonly string[]): InferenceNote {
  const id = candidates[0] ?? '<property>';
  const path = facts.collectionPath;
  // Bodies wrapped in one property: the identifier is inside, and the override must say so too.
  const hint = facts.envelopeHint;
  const configEnvelope = hint === undefined ? '' : `, "envelope": "${hint}"`;
  const documentEnvelope = hint === undefined ? '' : `, envelope: ${hint}`;
  return {
    subject: path,
    level: 'ambiguous',
    message:
      `no resource: ${cause}. Say which property identifies an item: in the config file, ` +
      `"resources": { "${path}": { "id": "${id}"${configEnvelope} } }, or in the document, x-plantstore: { id: ${id}${documentEnvelope} } on the path item ${path} ` +
      `(add "assignedBy": "client" or "server" to say who assigns it; "stateful": false leaves ${path} to the mocker)`,
  };
}
