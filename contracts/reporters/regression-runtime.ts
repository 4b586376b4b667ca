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
import { headersFor, pathFor } from './regression-secrets.js';

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
  /**
   * The body is JSON matching this JSON Schema, as the check judged it (allOf merged, writeOnly
   * stripped, true int64 bounds). `validator`, written in emitted files, is that check's own Ajv
   * validator as standalone JavaScript (one expression, needing nothing installed), which judges.
   */
  | { readonly kind: 'json-schema'; readonly schema: unknown; readonly validator?: string }
  /**
   * The headers (by lower-case name) match this object schema of the declared ones, as the check
   * judged them: `validator` coerces a header's text to its schema's type (a header read as text
   * whole: a list or object header is not split as the check's deserializer splits it).
   */
  | { readonly kind: 'headers'; readonly schema: unknown; readonly validator?: string }
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
  | { readonly kind: 'at-most-items'; readonly limit: string }
  /** The list's total, in this header or at this place of its JSON body, is at least `atLeast`. */
  | ({ readonly kind: 'total-at-least'; readonly atLeast: string } & ({ readonly header: string } | { readonly body: readonly string[] }));

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
const ID_INDEPENDENT: ReadonlySet<Expectation['kind']> = new Set(['echo', 'json-schema', 'headers', 'media-type', 'declared-status']);

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
      const body = readAsJudged(answer.text);
      expect(schemaProblems(body, validatorOf(expectation))).toEqual([]);
      return;
    }
    case 'headers': {
      // As the check: an empty header counts as absent.
      const headers = Object.fromEntries(Object.entries(answer.headers).filter(([, value]) => value !== ''));
      expect(schemaProblems(headers, validatorOf(expectation)).map((problem) => problem.replace(/^body/, 'headers'))).toEqual([]);
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
    case 'total-at-least': {
      const total =
        'header' in expectation
          ? answer.headers[expectation.header]
          : expectation.body.reduce<unknown>((at, name) => (at as Record<string, unknown> | undefined)?.[name], JSON.parse(answer.text));
      expect(Number(total), `the total (${'header' in expectation ? expectation.header : expectation.body.join('.')})`).toBeGreaterThanOrEqual(
        Number(expectation.atLeast),
      );
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

/** A validator as Ajv's standalone code makes it: true or false, and the errors of the last call. */
export type Validator = ((data: unknown) => boolean) & {
  readonly errors?: ReadonlyArray<{ readonly instancePath: string; readonly message?: string; readonly params?: unknown }> | null;
};

const validators = new Map<string, Validator>();

/** The expectation's validator, evaluated once per file (it is code the emitter generated from the check's schema). */
export function validatorOf(expectation: { readonly validator?: string }): Validator {
  const code = expectation.validator;
  if (code === undefined) throw new Error('this expectation carries no validator: write the file again with plantstore verify --emit-regressions');
  let validate = validators.get(code);
  if (validate === undefined) {
    validate = new Function(`return ${code};`)() as Validator;
    validators.set(code, validate);
  }
  return validate;
}

/** What the validator says of `value`: each error as "body<path> <message>", none when it conforms. */
export function schemaProblems(value: unknown, validate: Validator): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `body${error.instancePath} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
  );
}

/**
 * An answer's JSON as the check read it: an integer literal beyond 2^53 becomes a double on the
 * same side of the int64 bounds as its exact value (2^63 − 1 stays below 2^63, which JSON.parse would
 * round it to), as the suite's validation view does (src/core/prism/int64-bounds.ts). Fractions and
 * exponents are JSON.parse's.
 */
export function readAsJudged(text: string): unknown {
  const mark = [0, 1, 2, 3, 4, 5, 6, 7].map((code) => String.fromCharCode(code)).find((c) => !text.includes(`\\u000${c.charCodeAt(0)}`));
  if (mark === undefined || !/\d{16}/.test(text)) return JSON.parse(text);
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?[1-9]\d{15,}(?![\w.+-])/g, (token) =>
    token.startsWith('"') ? token : `"\\u000${mark.charCodeAt(0)}${token}"`,
  );
  return JSON.parse(marked, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(mark) ? int64View(BigInt(value.slice(1))) : value));
}

const TWO_POW_63 = 2 ** 63;

function int64View(value: bigint): number {
  const double = Number(value);
  if (value > 2n ** 63n - 1n) return Math.max(double, TWO_POW_63);
  if (value < -(2n ** 63n)) return Math.min(double, -TWO_POW_63 - 2048);
  return double >= TWO_POW_63 ? TWO_POW_63 - 1024 : double;
}
