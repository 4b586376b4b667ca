/**
 * The runtime of the regression tests that `plantstore verify --emit-regressions` writes. It is
 * copied beside them as regression-runtime.ts; each test file holds only its data (STEPS, the
 * EXPECTATION) and one call of `regressionTest`. It needs vitest and undici, not plantstore.
 *
 * A test replays the exact requests of a finding (its `before` steps, then its request) against
 * process.env.CONTRACT_TARGET and asserts the check's expectation. Ids of 2^42 and more were drawn
 * fresh for the run; they move by one random multiple of 4096 per run (keeping how the steps' ids
 * relate), so a target that keeps plants from earlier runs does not refuse them as duplicates.
 * Where the expectation does not depend on the id (what the answer carries, its type, schema or
 * status), smaller ids are swapped for fresh ones too, consistently across the steps; edge ids
 * that are the point of a finding otherwise stay.
 *
 * The items a stateful sequence created are named by variables ({{ID1}} in paths, bodies and the
 * expectation): an id the client chose is drawn fresh for each replay (same size and shape), an id
 * the server assigned is read from the answer to the step that created it, so the whole sequence
 * replays against a target that holds what earlier runs left.
 */
import { request } from 'undici';
import { expect, test } from 'vitest';

/**
 * What a check requires of the answer to a finding's request, as data, so that a regression
 * test can assert the same thing without the suite.
 */
export type Expectation =
  /** The status is in one of these classes (2 = 2xx, 4 = 4xx). */
  | { readonly kind: 'status-class'; readonly classes: readonly number[] }
  /** The status is in none of these classes, and there is an answer. */
  | { readonly kind: 'not-status-class'; readonly classes: readonly number[] }
  /** The status is one of these declared codes ("200", "4XX", "default"). */
  | { readonly kind: 'declared-status'; readonly codes: readonly string[] }
  /** The content-type's media type is one of these (parameters ignored, wildcards allowed). */
  | { readonly kind: 'media-type'; readonly mediaTypes: readonly string[] }
  /** The body is JSON matching this JSON Schema (as prism-http dereferenced it). */
  | { readonly kind: 'json-schema'; readonly schema: unknown }
  /** The answer's JSON object carries back `property` as sent, or lacks it when it was not sent. */
  /** `path`: where a nested property sits (["user", "email"]), the property being its last name. */
  | { readonly kind: 'echo'; readonly property: string; readonly path?: readonly string[] }
  /** The answer's JSON object shows each value (`json`, as JSON text), or lacks the property (or has null) where `json` is absent. */
  | { readonly kind: 'shows'; readonly values: ReadonlyArray<{ readonly property: string; readonly json?: string }> }
  /**
   * The list answer (an array, or an object with one array property) has an item whose `property` is each of
   * `json`; only judged when the list is complete (fewer items than `limit`, when one was asked for).
   */
  | { readonly kind: 'lists'; readonly property: string; readonly json: readonly string[]; readonly limit?: string }
  /** The list answer has no item whose `property` is any of `json`. */
  | { readonly kind: 'does-not-list'; readonly property: string; readonly json: readonly string[] }
  /** The list answer has at most `limit` items. */
  | { readonly kind: 'at-most-items'; readonly limit: string };

/** One request to send again, as the run sent it. */
export interface Step {
  readonly method: string;
  /** The path and query, appended to CONTRACT_TARGET. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Its authorization header carries the run's token (not one made wrong on purpose): see TOKEN. */
  readonly runToken: boolean;
  /**
   * This step creates an item whose id later steps name as {{name}}: the client's (`sent`, as recorded, drawn
   * fresh for each replay) or the server's (`property` of this step's JSON answer).
   */
  readonly defines?: { readonly name: string; readonly sent?: string; readonly property?: string };
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/**
 * The token sent in place of the run's own, in the steps that carried it: a run given `--token`
 * recorded "$TOKEN" where its token was, never the token itself, so such a file needs CONTRACT_TOKEN.
 * Unset, a step recorded without a token is sent exactly as recorded.
 */
const TOKEN: string | undefined = process.env.CONTRACT_TOKEN || undefined;

/** Expectations that hold whatever the id: the id of their requests may be swapped for a fresh one. */
const ID_INDEPENDENT: ReadonlySet<Expectation['kind']> = new Set(['echo', 'json-schema', 'media-type', 'declared-status']);

/** The vitest test of one finding: skipped when CONTRACT_TARGET is not set. */
export function regressionTest(title: string, steps: readonly Step[], expectation: Expectation): void {
  const target = process.env.CONTRACT_TARGET;
  test.skipIf(!target)(title, async () => {
    const { answer, sent, ids } = await replay(target ?? '', steps, ID_INDEPENDENT.has(expectation.kind));
    assertExpectation(withIds(expectation, ids), answer, sent);
  });
}

/** Sends the steps in order; the answer and the request, as sent, of the last one. */
export async function replay(
  target: string,
  steps: readonly Step[],
  swapIds: boolean,
): Promise<{ answer: Answer; sent: Step; ids: ReadonlyMap<string, string> }> {
  // One shift for all steps, so that a re-used id stays re-used and neighbours stay neighbours.
  const shift = idShift();
  const swapped = swapIds ? new Map<bigint, bigint>() : undefined;
  const ids = new Map<string, string>();
  let answer: Answer | undefined;
  let sent: Step | undefined;
  for (const step of steps) {
    const defines = step.defines;
    if (defines?.sent !== undefined) ids.set(defines.name, freshLike(defines.sent, shift));
    // Recorded ids move first; the variables' ids are fresh already.
    const body = step.body === undefined ? undefined : withIdsIn(moveIds(step.body, shift, swapped), ids, (id) => id);
    sent = { ...step, path: withIdsIn(step.path, ids, encodeURIComponent), ...(body === undefined ? {} : { body }) };
    answer = await send(target, sent);
    if (defines?.property !== undefined) {
      const assigned = valueIn(answer.text, defines.property);
      if (assigned === undefined) throw new Error(`step ${sent.method} ${sent.path} answered no ${defines.property} (${answer.status}): ${answer.text}`);
      ids.set(defines.name, assigned);
    }
  }
  if (answer === undefined || sent === undefined) throw new Error('no step to send');
  return { answer, sent, ids };
}

/** The text with each {{NAME}} of a known id replaced by the id, written by `write`. */
export function withIdsIn(text: string, ids: ReadonlyMap<string, string>, write: (id: string) => string): string {
  return text.replace(/\{\{(ID\d+)\}\}/g, (whole, name: string) => {
    const id = ids.get(name);
    return id === undefined ? whole : write(id);
  });
}

/** The expectation with its {{NAME}}s filled in. */
export function withIds(expectation: Expectation, ids: ReadonlyMap<string, string>): Expectation {
  return JSON.parse(withIdsIn(JSON.stringify(expectation), ids, (id) => id)) as Expectation;
}

/** A top-level property of a JSON answer, exactly as written (digits of an integer beyond 2^53 kept), as an id's text. */
export function valueIn(text: string, property: string): string | undefined {
  const escaped = JSON.stringify(property).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|-?\\d+)`).exec(text);
  if (match === null) return undefined;
  const value = match[1] as string;
  return value.startsWith('"') ? (JSON.parse(value) as string) : value;
}

/**
 * A fresh id like the recorded one: an integer of the same sign and size (moved by `shift` from 2^42,
 * drawn anew in [2^30, 2^31) below that, so an int32 id stays one), a string with its runs of hex digits drawn anew.
 */
export function freshLike(recorded: string, shift: bigint): string {
  if (/^-?\d+$/.test(recorded)) {
    const id = BigInt(recorded);
    const magnitude = id < 0n ? -id : id;
    const moved =
      magnitude >= 2n ** 42n ? (magnitude < 2n ** 62n ? magnitude + shift : magnitude - shift) : 2n ** 30n + BigInt(Math.floor(Math.random() * 2 ** 30));
    return String(id < 0n ? -moved : moved);
  }
  // Runs of 8 or more hex digits (and dashes: a uuid) that start a word; "lc-" and other letters stay.
  return recorded.replace(/(?<![0-9A-Za-z])[0-9a-f][0-9a-f-]{7,}/g, (run) =>
    run.replace(/[0-9a-f]/g, () => '0123456789abcdef'[Math.floor(Math.random() * 16)] as string),
  );
}

/** A random multiple of 4096 below 2^39. */
export function idShift(): bigint {
  return BigInt(1 + Math.floor(Math.random() * 2 ** 27)) << 12n;
}

export async function send(target: string, step: Step): Promise<Answer> {
  const response = await request(urlOf(target, pathFor(step.path, TOKEN)), {
    method: step.method as 'POST',
    headers: headersFor(step, TOKEN),
    body: step.body === undefined ? null : Buffer.from(step.body, 'utf8'),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.statusCode, headers: flatHeaders(response.headers), text: await response.body.text() };
}

export function urlOf(target: string, path: string): string {
  return target.replace(/\/+$/, '') + path;
}

/**
 * A "$TOKEN"-style variable the report wrote in place of a secret (contracts/client/secrets.ts):
 * CONTRACT_<NAME> holds its value ("$BASIC_AUTH" is CONTRACT_BASIC_AUTH=<user>:<password>).
 */
const SECRET_VARIABLE = /\$((?:TOKEN|BASIC_AUTH|API_KEY|HEADER)(?:_[A-Z0-9]+)*)(?![A-Za-z0-9_])/g;

/** The value of a secret variable from the environment, as it travels; a clear error when it is not set. */
function secretValue(name: string, token: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  const value = name === 'TOKEN' ? token : env[`CONTRACT_${name}`] || undefined;
  if (value === undefined) {
    throw new Error(`this regression was recorded with $${name} in place of a secret, which is never written down: set CONTRACT_${name} to it`);
  }
  return name === 'BASIC_AUTH' ? Buffer.from(value).toString('base64') : value;
}

/** Text with its secret variables filled in from the environment. */
export function withSecrets(text: string, token: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return text.replace(SECRET_VARIABLE, (_whole, name: string) => secretValue(name, token, env));
}

/** The step's path with an API key in its query ("?api_key=%24API_KEY") filled in, encoded. */
export function pathFor(path: string, token: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return path
    .replace(/%24(?=(?:TOKEN|BASIC_AUTH|API_KEY|HEADER))/g, '$')
    .replace(SECRET_VARIABLE, (_whole, name: string) => encodeURIComponent(secretValue(name, token, env)));
}

/** The step's headers: `token` as the bearer credentials where the step carried the run's token, secret variables filled in. */
export function headersFor(
  step: Pick<Step, 'headers' | 'runToken'>,
  token: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Readonly<Record<string, string>> {
  let changed = false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(step.headers)) {
    const bearer = step.runToken && token !== undefined && name.toLowerCase() === 'authorization' && /^bearer /i.test(value);
    headers[name] = bearer ? `Bearer ${token}` : withSecrets(value, token, env);
    changed ||= headers[name] !== value;
  }
  // Unchanged, the recorded object itself: nothing to swap.
  return changed ? headers : step.headers;
}

/** Header names in lower case, repeated headers joined with ", ". */
export function flatHeaders(raw: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Ids of 2^42 and more (drawn for the run) move by `shift`, away from 0 below 2^62 and towards it
 * above; smaller ones are swapped for fresh ones when `swapped` is given (the same id, the same swap).
 */
export function moveIds(body: string, shift: bigint, swapped: Map<bigint, bigint> | undefined): string {
  return body.replace(/("id"\s*:\s*)(-?\d{1,19})(?![\d.eE])/g, (whole: string, prefix: string, digits: string) => {
    const id = BigInt(digits);
    const magnitude = id < 0n ? -id : id;
    if (magnitude >= 2n ** 63n - 2n) return whole;
    if (magnitude < 2n ** 42n) {
      if (swapped === undefined) return whole;
      const fresh = swapped.get(id) ?? 2n ** 61n + (BigInt(Math.floor(Math.random() * 2 ** 30)) << 30n) + BigInt(Math.floor(Math.random() * 2 ** 30));
      swapped.set(id, fresh);
      return prefix + String(fresh);
    }
    const moved = magnitude < 2n ** 62n ? magnitude + shift : magnitude - shift;
    return prefix + String(id < 0n ? -moved : moved);
  });
}

/** Fails the test (vitest's expect) unless `answer`, the answer to `sent`, meets the expectation. */
export function assertExpectation(expectation: Expectation, answer: Answer, sent: Pick<Step, 'body'>): void {
  switch (expectation.kind) {
    case 'status-class':
      expect(
        expectation.classes.map((c) => `${c}xx`),
        `status ${answer.status}: ${answer.text}`,
      ).toContain(`${Math.floor(answer.status / 100)}xx`);
      return;
    case 'not-status-class':
      expect(
        expectation.classes.map((c) => `${c}xx`),
        `status ${answer.status}: ${answer.text}`,
      ).not.toContain(`${Math.floor(answer.status / 100)}xx`);
      return;
    case 'declared-status': {
      const code = String(answer.status);
      const declared = expectation.codes.some((c) => c === code || c.toUpperCase() === `${code[0]}XX` || c === 'default');
      expect(declared, `status ${answer.status} is not one of ${expectation.codes.join(', ')}`).toBe(true);
      return;
    }
    case 'media-type':
      expect(
        expectation.mediaTypes.some((declared) => mediaTypeMatches(answer.headers['content-type'], declared)),
        `content-type ${answer.headers['content-type'] ?? '(none)'}`,
      ).toBe(true);
      return;
    case 'json-schema': {
      const body: unknown = JSON.parse(answer.text);
      expect(schemaProblems(body, expectation.schema as Schema, 'body')).toEqual([]);
      return;
    }
    case 'echo': {
      // A nested property: both sides read down the path to its parent object.
      const down = (value: unknown): Record<string, unknown> =>
        (expectation.path ?? [expectation.property])
          .slice(0, -1)
          .reduce<Record<string, unknown>>((at, name) => (at[name] ?? {}) as Record<string, unknown>, value as Record<string, unknown>);
      const body = down(JSON.parse(answer.text));
      const request = down(JSON.parse(sent.body ?? '{}'));
      const property = expectation.path?.at(-1) ?? expectation.property;
      if (Object.prototype.hasOwnProperty.call(request, property)) expect(body[property]).toEqual(request[property]);
      else expect(body).not.toHaveProperty(property);
      return;
    }
    case 'lists':
    case 'does-not-list': {
      const items = listItemsOf(answer.text);
      expect(items, `not a list: ${answer.text.slice(0, 200)}`).toBeDefined();
      const shown = (json: string): boolean =>
        (items ?? []).some((item) => item[expectation.property] !== undefined && jsonText(item[expectation.property]) === jsonText(JSON.parse(json)));
      if (expectation.kind === 'does-not-list') {
        expect(expectation.json.filter(shown), 'listed though deleted').toEqual([]);
        return;
      }
      // A full page may leave the items to later pages: only a list shorter than its limit is complete.
      if (expectation.limit !== undefined && BigInt(items?.length ?? 0) >= BigInt(expectation.limit)) return;
      expect(
        expectation.json.filter((json) => !shown(json)),
        'not listed though created',
      ).toEqual([]);
      return;
    }
    case 'at-most-items': {
      const items = listItemsOf(answer.text);
      expect(items, `not a list: ${answer.text.slice(0, 200)}`).toBeDefined();
      expect(items?.length ?? 0, 'items in the list').toBeLessThanOrEqual(Number(expectation.limit));
      return;
    }
    case 'shows': {
      const body = JSON.parse(answer.text) as Record<string, unknown>;
      for (const { property, json } of expectation.values) {
        if (json === undefined) expect(body[property] ?? null, property).toBeNull();
        else expect(body[property], property).toEqual(JSON.parse(json));
      }
      return;
    }
  }
}

/** The items of a list answer: the array itself, or the one array property of an object. */
export function listItemsOf(text: string): Array<Record<string, unknown>> | undefined {
  const body: unknown = JSON.parse(text);
  const arrays = Array.isArray(body) ? [body] : typeof body === 'object' && body !== null ? Object.values(body).filter(Array.isArray) : [];
  return arrays.length === 1 ? (arrays[0] as Array<Record<string, unknown>>) : undefined;
}

function jsonText(value: unknown): string {
  return JSON.stringify(value);
}

/** Whether a content-type header's media type (parameters ignored) is the declared one; `*` matches any type or subtype. */
export function mediaTypeMatches(header: string | undefined, declared: string): boolean {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const [want = '', wantSub = ''] = declared.toLowerCase().split('/');
  const [got = '', gotSub = ''] = type.split('/');
  return (want === '*' || want === got) && (wantSub === '*' || wantSub === gotSub);
}

export interface Schema {
  readonly type?: string | readonly string[];
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly allOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
}

/** The JSON Schema keywords an API document's response schemas use; enough to hold an answer to it. */
export function schemaProblems(value: unknown, schema: Schema, at: string): string[] {
  const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : [...schema.type];
  const is = (type: string): boolean =>
    type === 'integer'
      ? Number.isInteger(value)
      : type === 'number'
        ? typeof value === 'number'
        : type === 'array'
          ? Array.isArray(value)
          : type === 'object'
            ? typeof value === 'object' && value !== null && !Array.isArray(value)
            : type === 'null'
              ? value === null
              : typeof value === type;
  if (types.length > 0 && !types.some(is)) return [`${at} must be ${types.join(' or ')}`];
  const out: string[] = [];
  if (schema.enum !== undefined && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    out.push(`${at} must be one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at} must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at} must be <= ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) out.push(`${at} must have at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && length > schema.maxLength) out.push(`${at} must have at most ${schema.maxLength} characters`);
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items;
    value.forEach((item, i) => out.push(...schemaProblems(item, items, `${at}[${i}]`)));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) out.push(`${at} must have property ${key}`);
    for (const [key, item] of Object.entries(object)) {
      const declared = schema.properties?.[key];
      if (declared !== undefined) out.push(...schemaProblems(item, declared, `${at}.${key}`));
      else if (schema.additionalProperties === false) out.push(`${at} must not have property ${key}`);
      else if (typeof schema.additionalProperties === 'object') out.push(...schemaProblems(item, schema.additionalProperties, `${at}.${key}`));
    }
  }
  for (const part of schema.allOf ?? []) out.push(...schemaProblems(value, part, at));
  if (schema.anyOf !== undefined && !schema.anyOf.some((part) => schemaProblems(value, part, at).length === 0)) out.push(`${at} matches none of anyOf`);
  if (schema.oneOf !== undefined && schema.oneOf.filter((part) => schemaProblems(value, part, at).length === 0).length !== 1)
    out.push(`${at} must match exactly one of oneOf`);
  return out;
}
