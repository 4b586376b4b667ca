/**
 * --emit-regressions DIR: each failing finding as a small vitest file a team can commit. The
 * file replays the exact requests (the finding's `before` steps, then its request) with undici
 * against process.env.CONTRACT_TARGET and asserts the check's expectation, with no dependency on
 * this suite. Ids of 2^42 and more were drawn fresh for the run; the file moves them by one random
 * multiple of 4096 per run (keeping how the steps' ids relate), so a target that keeps plants
 * from earlier runs does not refuse them as duplicates. Where the expectation does not depend on
 * the id (what the answer carries, its type, schema or status), smaller ids are swapped for fresh
 * ones too, consistently across the steps; edge ids that are the point of a finding otherwise stay.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Expectation, Finding, SentRequest, VerifyReport } from '../report.js';
import { findingMessage } from './finding.js';
import { replayFlagsOf } from './replay.js';

export interface EmittedFile {
  readonly path: string;
  readonly finding: Finding;
}

/** Writes one `<check>-<n>.test.ts` per failing finding into `dir`; returns what it wrote. */
export async function emitRegressions(report: VerifyReport, dir: string, now = new Date()): Promise<EmittedFile[]> {
  await mkdir(dir, { recursive: true });
  const written: EmittedFile[] = [];
  for (const check of report.checks) {
    const failing = check.findings.filter((finding) => finding.severity === 'failure');
    for (const [index, finding] of failing.entries()) {
      const path = join(dir, `${check.id}-${index + 1}.test.ts`);
      await writeFile(path, regressionSource(report, finding, now));
      written.push({ path, finding });
    }
  }
  return written;
}

interface Step {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The text of one regression file (pure, for tests). */
export function regressionSource(report: VerifyReport, finding: Finding, now = new Date()): string {
  const steps = [...(finding.before ?? []), finding.request].map((request) => stepOf(report.target, request));
  const expectation = finding.expectation ?? { kind: 'not-status-class', classes: [5] };
  const replay = finding.path === undefined ? '' : ` ${replayFlagsOf(report.replayOptions)} --seed ${finding.seed} --replay ${finding.path}`.replace(/ {2,}/g, ' ');
  const title = `${finding.check}: ${findingMessage(finding)}`;
  const anyId = ID_INDEPENDENT.has(expectation.kind);
  return `/**
 * Regression test written by \`plantstore verify --emit-regressions\` on ${now.toISOString().slice(0, 10)}.
 * ${comment(title)}
 * Expected: ${comment(finding.expected)}
 * Found: ${comment(finding.actual)}
 * First seen against ${comment(report.target)} (plantstore verify${replay}).
 *
 * Run it: CONTRACT_TARGET=http://127.0.0.1:4010 npx vitest run <this file>
 */
import { request } from 'undici';
import { expect, test } from 'vitest';

interface Step {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

const target = process.env.CONTRACT_TARGET;

const STEPS: readonly Step[] = ${JSON.stringify(steps, null, 2)};

const EXPECTATION = ${JSON.stringify(compact(expectation), null, 2)} as const;

test.skipIf(!target)(${JSON.stringify(title)}, async () => {
  // One shift for all steps, so that a re-used id stays re-used and neighbours stay neighbours.
  const shift = BigInt(1 + Math.floor(Math.random() * 2 ** 27)) << 12n;
  const swapped = new Map<bigint, bigint>();
  let answer: Answer | undefined;
  let sent: Step | undefined;
  for (const step of STEPS) {
    sent = { ...step, ...(step.body === undefined ? {} : { body: moveIds(step.body, shift, ${anyId ? 'swapped' : 'undefined'}) }) };
    answer = await send(sent);
  }
  if (answer === undefined || sent === undefined) throw new Error('no step to send');
${assertion(expectation)}
});

async function send(step: Step): Promise<Answer> {
  const base = (target ?? '').replace(/\\/+$/, '');
  const response = await request(base + step.path, {
    method: step.method as 'POST',
    headers: step.headers,
    ...(step.body === undefined ? {} : { body: Buffer.from(step.body, 'utf8') }),
    signal: AbortSignal.timeout(10_000),
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, headers, text: await response.body.text() };
}

/**
 * Ids of 2^42 and more (drawn for the run) move by \`shift\`, away from 0 below 2^62 and towards it
 * above; smaller ones are swapped for fresh ones when \`swapped\` is given (the same id, the same swap).
 */
function moveIds(body: string, shift: bigint, swapped: Map<bigint, bigint> | undefined): string {
  return body.replace(/("id"\\s*:\\s*)(-?\\d{1,19})(?![\\d.eE])/g, (whole: string, prefix: string, digits: string) => {
    const id = BigInt(digits);
    const magnitude = id < 0n ? -id : id;
    if (magnitude >= 2n ** 63n - 2n) return whole;
    if (magnitude < 2n ** 42n) {
      if (swapped === undefined) return whole;
      const fresh = swapped.get(id) ?? (2n ** 61n + (BigInt(Math.floor(Math.random() * 2 ** 30)) << 30n) + BigInt(Math.floor(Math.random() * 2 ** 30)));
      swapped.set(id, fresh);
      return prefix + String(fresh);
    }
    const moved = magnitude < 2n ** 62n ? magnitude + shift : magnitude - shift;
    return prefix + String(id < 0n ? -moved : moved);
  });
}
${helpers(expectation)}`;
}

/** Expectations that hold whatever the id: the id of their requests may be swapped for a fresh one. */
const ID_INDEPENDENT = new Set<Expectation['kind']>(['echo', 'json-schema', 'media-type', 'declared-status']);

function stepOf(target: string, request: SentRequest): Step {
  const base = target.replace(/\/+$/, '');
  const path = request.url.startsWith(base) ? request.url.slice(base.length) || '/' : new URL(request.url).pathname + new URL(request.url).search;
  const step = { method: request.method, path, headers: request.headers };
  return request.body === undefined ? step : { ...step, body: request.body };
}

function comment(text: string): string {
  return text.replace(/\*\//g, '* /').replace(/[\r\n]+/g, ' ');
}

/** The expectation without prism's bookkeeping (x-stoplight ids, descriptions), for a readable file. */
function compact(expectation: Expectation): Expectation {
  return expectation.kind === 'json-schema' ? { kind: 'json-schema', schema: stripNoise(expectation.schema) } : expectation;
}

function stripNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNoise);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.startsWith('x-') && key !== '$schema' && key !== 'description' && key !== 'examples')
      .map(([key, v]) => [key, stripNoise(v)]),
  );
}

function assertion(expectation: Expectation): string {
  switch (expectation.kind) {
    case 'status-class':
      return `  expect(EXPECTATION.classes.map((c) => \`\${c}xx\`), \`status \${answer.status}: \${answer.text}\`).toContain(\`\${Math.floor(answer.status / 100)}xx\`);`;
    case 'not-status-class':
      return `  expect(EXPECTATION.classes.map((c) => \`\${c}xx\`), \`status \${answer.status}: \${answer.text}\`).not.toContain(\`\${Math.floor(answer.status / 100)}xx\`);`;
    case 'declared-status':
      return `  const code = String(answer.status);
  const declared = EXPECTATION.codes.some((c: string) => c === code || c.toUpperCase() === \`\${code[0]}XX\` || c === 'default');
  expect(declared, \`status \${answer.status} is not one of \${EXPECTATION.codes.join(', ')}\`).toBe(true);`;
    case 'media-type':
      return `  const type = (answer.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const matches = EXPECTATION.mediaTypes.some((declared: string) => {
    const [want = '', wantSub = ''] = declared.toLowerCase().split('/');
    const [got = '', gotSub = ''] = type.split('/');
    return (want === '*' || want === got) && (wantSub === '*' || wantSub === gotSub);
  });
  expect(matches, \`content-type \${answer.headers['content-type'] ?? '(none)'}\`).toBe(true);`;
    case 'json-schema':
      return `  const body: unknown = JSON.parse(answer.text);
  expect(problems(body, EXPECTATION.schema as Schema, 'body')).toEqual([]);`;
    case 'echo':
      return `  const body = JSON.parse(answer.text) as Record<string, unknown>;
  const request = JSON.parse(sent.body ?? '{}') as Record<string, unknown>;
  const property = EXPECTATION.property;
  if (Object.prototype.hasOwnProperty.call(request, property)) expect(body[property]).toEqual(request[property]);
  else expect(body).not.toHaveProperty(property);`;
  }
}

function helpers(expectation: Expectation): string {
  if (expectation.kind !== 'json-schema') return '';
  return `
interface Schema {
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

/** The JSON Schema keywords an API document's response schemas use; enough to hold this answer to it. */
function problems(value: unknown, schema: Schema, at: string): string[] {
  const types = schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : [...schema.type];
  const is = (type: string): boolean =>
    type === 'integer' ? Number.isInteger(value) : type === 'number' ? typeof value === 'number' : type === 'array' ? Array.isArray(value)
      : type === 'object' ? typeof value === 'object' && value !== null && !Array.isArray(value) : type === 'null' ? value === null : typeof value === type;
  if (types.length > 0 && !types.some(is)) return [\`\${at} must be \${types.join(' or ')}\`];
  const out: string[] = [];
  if (schema.enum !== undefined && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) out.push(\`\${at} must be one of \${JSON.stringify(schema.enum)}\`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(\`\${at} must be >= \${schema.minimum}\`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(\`\${at} must be <= \${schema.maximum}\`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) out.push(\`\${at} must have at least \${schema.minLength} characters\`);
    if (schema.maxLength !== undefined && length > schema.maxLength) out.push(\`\${at} must have at most \${schema.maxLength} characters\`);
  }
  if (Array.isArray(value) && schema.items !== undefined) value.forEach((item, i) => out.push(...problems(item, schema.items as Schema, \`\${at}[\${i}]\`)));
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in object)) out.push(\`\${at} must have property \${key}\`);
    for (const [key, item] of Object.entries(object)) {
      const declared = schema.properties?.[key];
      if (declared !== undefined) out.push(...problems(item, declared, \`\${at}.\${key}\`));
      else if (schema.additionalProperties === false) out.push(\`\${at} must not have property \${key}\`);
      else if (typeof schema.additionalProperties === 'object') out.push(...problems(item, schema.additionalProperties, \`\${at}.\${key}\`));
    }
  }
  for (const part of schema.allOf ?? []) out.push(...problems(value, part, at));
  if (schema.anyOf !== undefined && !schema.anyOf.some((part) => problems(value, part, at).length === 0)) out.push(\`\${at} matches none of anyOf\`);
  if (schema.oneOf !== undefined && schema.oneOf.filter((part) => problems(value, part, at).length === 0).length !== 1) out.push(\`\${at} must match exactly one of oneOf\`);
  return out;
}
`;
}
