/**
 * --emit-regressions DIR: each failing finding as a small vitest file a team can commit. A file
 * holds only the finding's data (the exact requests as STEPS, the check's EXPECTATION) and calls
 * `regressionTest` from regression-runtime.ts, which is copied beside it: the files need vitest
 * and undici, not plantstore. What the runtime does with ids and tokens is told there.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgedBundleOf } from '../../src/core/prism/adapter.js';
import { standaloneValidator } from '../../src/core/prism/standalone.js';
import type { Expectation, Finding, SentRequest, VerifyReport } from '../report.js';
import { createdItems, idJson, placeholderJson, withPlaceholders } from './created-items.js';
import { findingMessage } from './finding.js';
import type { Step } from './regression-runtime.js';
import { replayFlagsOf } from './replay.js';

export interface EmittedFile {
  readonly path: string;
  readonly finding: Finding;
}

/** The name of the runtime beside the emitted files; they import it as './regression-runtime.js'. */
export const RUNTIME_FILE = 'regression-runtime.ts';
/** Every file of the runtime, copied beside the emitted files (the runtime imports the others). */
export const RUNTIME_FILES = [RUNTIME_FILE, 'regression-secrets.ts'] as const;

/** Writes one `<check>-<n>.test.ts` per failing finding into `dir`, and the runtime they import; returns the tests it wrote. */
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
  if (written.length > 0) for (const file of RUNTIME_FILES) await copyFile(runtimeSource(file), join(dir, file));
  return written;
}

/**
 * The runtime's source file: beside this module when the suite runs from source, and in the
 * package's contracts/reporters/ when it runs from dist/ (tsc does not copy .ts files; package.json lists it).
 */
export function runtimeSource(file: (typeof RUNTIME_FILES)[number] = RUNTIME_FILE): string {
  const candidates = [new URL(`./${file}`, import.meta.url), new URL(`../../../contracts/reporters/${file}`, import.meta.url)].map((url) => fileURLToPath(url));
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined) throw new Error(`the regression runtime is missing: none of ${candidates.join(', ')}`);
  return found;
}

/** The text of one regression file (pure, for tests). */
export function regressionSource(report: VerifyReport, finding: Finding, now = new Date()): string {
  const { steps, expectation } = withIdVariables(
    report.target,
    [...(finding.before ?? []), finding.request],
    finding.expectation ?? { kind: 'not-status-class', classes: [5] },
  );
  const replay =
    finding.path === undefined ? '' : ` ${replayFlagsOf(report.replayOptions)} --seed ${finding.seed} --replay ${finding.path}`.replace(/ {2,}/g, ' ');
  const title = `${finding.check}: ${findingMessage(finding)}`;
  return `/**
 * Regression test written by \`plantstore verify --emit-regressions\` on ${now.toISOString().slice(0, 10)}.
 * ${comment(title)}
 * Expected: ${comment(finding.expected)}
 * Found: ${comment(finding.actual)}
 * First seen against ${comment(report.target)} (plantstore verify${replay}).
 *
 * Run it: CONTRACT_TARGET=http://127.0.0.1:4010 npx vitest run <this file>
 */
import { regressionTest, type Expectation, type Step } from './${RUNTIME_FILE.replace(/\.ts$/, '.js')}';

const STEPS: readonly Step[] = ${JSON.stringify(steps, null, 2)};

const EXPECTATION: Expectation = ${JSON.stringify(compact(expectation), null, 2)};

regressionTest(${JSON.stringify(title)}, STEPS, EXPECTATION);
`;
}

function stepOf(target: string, request: SentRequest): Step {
  const base = target.replace(/\/+$/, '');
  const path = request.url.startsWith(base) ? request.url.slice(base.length) || '/' : new URL(request.url).pathname + new URL(request.url).search;
  const step = { method: request.method, path, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) };
  return { ...step, runToken: request.credentialsAltered !== true };
}

/**
 * The ids the steps' creates made, as {{ID1}}… variables in every later path, in bodies where they
 * carry the id property, and in the expectation (an item a list must or must not show by its id):
 * the runtime draws a client's id fresh and reads a server's from the create's answer, so the whole
 * sequence replays against a target that holds what earlier runs made. Which ids are created where
 * is created-items.ts's to say, for the printed curl steps too.
 */
export function withIdVariables(target: string, requests: readonly SentRequest[], expectation: Expectation): { steps: Step[]; expectation: Expectation } {
  const items = createdItems(requests);
  const steps = withPlaceholders(requests, items, target).map((request, at): Step => {
    const step = stepOf(target, request);
    const item = items.find((created) => created.at === at);
    if (item === undefined) return step;
    return { ...step, defines: item.assignedBy === 'client' ? { name: item.name, sent: item.id } : { name: item.name, property: item.property } };
  });
  let expected = expectation;
  for (const item of items) {
    if ((expected.kind === 'lists' || expected.kind === 'does-not-list') && expected.property === item.property) {
      const [text, named] = [idJson(item), placeholderJson(item)];
      expected = { ...expected, json: expected.json.map((json) => (json === text ? named : json)) };
    }
  }
  return { steps, expectation: expected };
}

function comment(text: string): string {
  return text.replace(/\*\//g, '* /').replace(/[\r\n]+/g, ' ');
}

/**
 * The expectation without prism's bookkeeping (x-stoplight ids, descriptions), for a readable file;
 * a schema's with the validator the check judged by, as standalone code generated from the same
 * schema (src/core/prism/standalone.ts), so a replay judges exactly as the check did.
 */
function compact(expectation: Expectation): Expectation {
  if (expectation.kind !== 'json-schema' && expectation.kind !== 'headers') return expectation;
  const schema = typeof expectation.schema === 'object' && expectation.schema !== null ? expectation.schema : {};
  // Headers are text: judged, as the check judges them, by an Ajv that coerces text to the schema's type.
  const validator = standaloneValidator({ schema, bundle: judgedBundleOf(schema) }, expectation.kind === 'headers');
  return { kind: expectation.kind, schema: stripNoise(expectation.schema), validator };
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
