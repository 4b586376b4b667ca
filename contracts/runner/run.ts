/**
 * The run: load the document, check the target answers, fire every property's sampled cases
 * concurrently through the Pool, judge each exchange with every check, then shrink one case per
 * kind of problem with fast-check from its seed and run index, and report.
 *
 * Why two phases: fast-check runs a property's cases one after another, which would leave the
 * Pool idle while each answer comes back. fc.sample draws exactly the values fc.check draws for
 * the same seed, so the cases are sampled up front and sent C at a time; only a failing case is
 * handed back to fast-check (`path` = its run index) to be shrunk, which is sequential but rare.
 */
import { DocumentError, loadDocument, operationName, type LoadedDocument, type Operation } from '../../src/document/load-document.js';
import { CHECKS, type CheckContext, type Exchange } from '../checks/index.js';
import { createClient, urlOn, type HttpClient } from '../client/http-client.js';
import { toCurl } from '../client/curl.js';
import fc from 'fast-check';
import type { CheckResult, CheckStatus, Finding, SentRequest, VerifyOptions, VerifyReport } from '../report.js';
import type { CaseContext, CaseSource } from './case-source.js';
import { concurrently } from './concurrently.js';
import { DEFAULTS } from './defaults.js';
import { cryptoRandom64 } from './ids.js';
import { modelProperty } from './model.js';
import { boundaryProperty, duplicateProperty, invalidProperties, literalNeighbours, validProperty } from './properties.js';
import type { Property } from './property.js';
import type { RunEnv } from './send.js';
import { newTally, occurrenceIn, record, stillShows, type Occurrence, type ProblemGroup, type Tally } from './tally.js';

/** The run could not start: bad options, an unusable document, an unreachable target. The CLI exits 2. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}

export { DEFAULTS };

/** Shrunk findings per check at most; further kinds of problem are counted, not shrunk. */
const MAX_FINDINGS_PER_CHECK = 5;
/** All shrinking together stops after this; what is left is reported as found. */
const SHRINK_BUDGET_MS = 60_000;

interface Plan {
  readonly operation: Operation;
  readonly context: CheckContext;
  readonly properties: readonly Property[];
  /** "valid" for the only operation, "createPlant/valid" when there are several. */
  readonly key: (property: Property) => string;
}

interface Settings {
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly strict: boolean;
}

export async function runVerification(options: VerifyOptions, source: CaseSource): Promise<VerifyReport> {
  const started = performance.now();
  const settings = settingsOf(options);
  const document = await loadOrExplain(options.spec);
  const operations = document.operations.filter(hasJsonRequestBody);
  if (operations.length === 0) throw new SetupError(`${document.source}: no operation takes a JSON request body; there is nothing to verify`);
  const client = clientOrExplain(options.target, settings);
  try {
    await ensureReachable(client, options.target);
    const plans = planFor(operations, options, source, settings);
    const tally = newTally();
    let casesRun = 0;
    const planned = plans.reduce((sum, plan) => sum + plan.properties.reduce((n, p) => n + p.numRuns * p.requestsPerRun, 0), 0);
    const progress = progressReporter(options, () => ({ casesRun, casesPlanned: Math.max(planned, casesRun), failures: tally.failures, warnings: tally.warnings }));
    const unsendable: string[] = [];
    const envFor = (operation: Operation, counting: boolean): RunEnv => ({
      client,
      operation,
      random: cryptoRandom64,
      onSent: counting
        ? () => {
            casesRun += 1;
            progress(false);
          }
        : () => undefined,
      onUnsendable: (reason) => {
        if (unsendable.length < 5) unsendable.push(reason);
      },
    });

    const mainStarted = performance.now();
    if (options.replay !== undefined) {
      await replayInto(tally, plans, options.replay, settings.seed, envFor);
    } else {
      await sampleInto(tally, plans, source, options, settings, envFor);
    }
    const mainMs = performance.now() - mainStarted;
    progress(true);

    const shrinkStarted = performance.now();
    const findings = await findingsOf(tally, plans, settings, (operation) => envFor(operation, false));
    const shrinkMs = performance.now() - shrinkStarted;

    const checks = CHECKS.map((check): CheckResult => {
      const own = findings.filter((f) => f.check === check.id);
      const cases = tally.cases.get(check.id) ?? 0;
      const status: CheckStatus = own.some((f) => f.severity === 'failure')
        ? 'failed'
        : own.length > 0
          ? 'warned'
          : cases > 0
            ? 'passed'
            : 'skipped';
      return { id: check.id, title: check.title, description: check.description, status, cases, findings: own };
    });
    return {
      target: options.target,
      spec: document.source,
      seed: settings.seed,
      runs: settings.runs,
      casesRun,
      durationMs: Math.round(performance.now() - started),
      casesPerSecond: mainMs > 0 ? Math.round((casesRun / mainMs) * 1000) : 0,
      shrinkMs: Math.round(shrinkMs),
      replayFlags: replayFlagsOf(options),
      checks,
      ok: checks.every((check) => check.status !== 'failed'),
    };
  } finally {
    await client.close();
  }
}

function settingsOf(options: VerifyOptions): Settings {
  const runs = options.runs ?? DEFAULTS.runs;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const seed = options.seed ?? randomSeed();
  if (!Number.isSafeInteger(runs) || runs < 1) throw new SetupError(`runs must be a whole number of at least 1, not ${runs}`);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new SetupError(`the timeout must be a positive number of milliseconds, not ${timeoutMs}`);
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 1024) throw new SetupError(`concurrency must be a whole number from 1 to 1024, not ${concurrency}`);
  // fast-check seeds are 32-bit; larger ones would be silently truncated and not replay as printed.
  if (!Number.isSafeInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 32) throw new SetupError(`the seed must be a 32-bit whole number, not ${seed}`);
  return { runs, seed, timeoutMs, concurrency, strict: options.strict === true };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

async function loadOrExplain(spec: VerifyOptions['spec']): Promise<LoadedDocument> {
  try {
    return await loadDocument(spec);
  } catch (error) {
    if (error instanceof DocumentError) throw new SetupError(error.message);
    throw error;
  }
}

function clientOrExplain(target: string, settings: Settings): HttpClient {
  try {
    return createClient(target, { connections: settings.concurrency, timeoutMs: settings.timeoutMs });
  } catch (error) {
    throw new SetupError(`the target "${target}" is not a usable http(s) URL: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function hasJsonRequestBody(operation: Operation): boolean {
  return (operation.request?.body?.contents ?? []).some((content) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(content.mediaType));
}

/** Any HTTP answer at all will do; a refused or failed connection is a set-up error, not a finding. */
async function ensureReachable(client: HttpClient, target: string): Promise<void> {
  const response = await client.send({ method: 'GET', url: urlOn(client.baseUrl, '/'), headers: {}, label: 'reachability probe' });
  if (response.error?.kind === 'connection') {
    throw new SetupError(`the target ${target} cannot be reached: ${response.error.message}. Is the server running, and is the URL right?`);
  }
  // A timeout means something accepted the connection: the checks will report the silence.
}

/** The options that change which requests are sent or how answers are judged, as CLI flags. */
export function replayFlagsOf(options: VerifyOptions): string {
  const flags: string[] = [];
  if (options.token !== undefined) flags.push('--token "$TOKEN"');
  if (typeof options.spec === 'string') flags.push(`--spec ${shellWord(options.spec)}`);
  if (options.expectUniqueIds === true) flags.push('--expect-unique-ids');
  if (options.stateful === true) flags.push('--stateful');
  if (options.tokensValidated === true) flags.push('--tokens-validated');
  if (options.strict === true) flags.push('--strict');
  return flags.join(' ');
}

function shellWord(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function planFor(operations: readonly Operation[], options: VerifyOptions, source: CaseSource, settings: Settings): Plan[] {
  const expectUniqueIds = options.expectUniqueIds === true;
  const stateful = options.stateful ?? expectUniqueIds;
  const caseContext: CaseContext = {
    ...(options.token === undefined ? {} : { token: options.token }),
    tokensValidated: options.tokensValidated === true,
    // The document does not forbid properties beyond the schema's: a target must take them.
    extraProperties: true,
  };
  const propertySettings = { runs: settings.runs, expectUniqueIds };
  return operations.map((operation) => {
    // Invalid requests first: a lenient target that takes one (say id 1.5 as 1) should not find
    // that id already stored by a valid create and refuse it for the wrong reason.
    const properties = [
      ...invalidProperties(operation, source, caseContext, propertySettings),
      ...(stateful || expectUniqueIds ? [modelProperty(operation, source, caseContext, propertySettings)] : []),
      validProperty(operation, source, caseContext, propertySettings),
      ...boundaryProperty(operation, source, caseContext),
      duplicateProperty(operation, source, caseContext, propertySettings),
    ];
    const prefix = operations.length === 1 ? '' : `${operationName(operation)}/`;
    return { operation, context: { operation, expectUniqueIds }, properties, key: (property) => `${prefix}${property.name}` };
  });
}

/** Phase 1: every property's cases for the seed, sent `concurrency` at a time, each judged as it comes back. */
async function sampleInto(
  tally: Tally,
  plans: readonly Plan[],
  source: CaseSource,
  options: VerifyOptions,
  settings: Settings,
  envFor: (operation: Operation, counting: boolean) => RunEnv,
): Promise<void> {
  // The fixed 2^53 / 2^53+1 pair, once per operation, before the rest.
  for (const [planIndex, plan] of plans.entries()) {
    const caseContext: CaseContext = { ...(options.token === undefined ? {} : { token: options.token }), tokensValidated: options.tokensValidated === true, extraProperties: true };
    const [plant] = fc.sample(source.validCases(plan.operation, caseContext), { seed: settings.seed, numRuns: 1 });
    if (plant === undefined) continue;
    const exchanges = await literalNeighbours(envFor(plan.operation, true), plant, plan.context.expectUniqueIds);
    record(tally, exchanges, plan.context, { property: 'literal-neighbours', startPath: undefined, plan: planIndex });
  }
  await concurrently(lazyWork(plans, settings.seed), settings.concurrency, async (item) => {
    const plan = plans[item.plan] as Plan;
    const exchanges = await item.run(envFor(plan.operation, true));
    record(tally, exchanges, plan.context, { property: plan.key(item.property), startPath: String(item.index), plan: item.plan });
  });
}

interface WorkItem {
  readonly plan: number;
  readonly property: Property;
  readonly index: number;
  readonly run: (env: RunEnv) => Promise<Exchange[]>;
}

/** Runs are drawn a slice at a time, when the workers reach them, so drawing overlaps sending. */
const SLICE = 32;

function* lazyWork(plans: readonly Plan[], seed: number): Generator<WorkItem> {
  for (const [planIndex, plan] of plans.entries()) {
    for (const property of plan.properties) {
      for (let from = 0; from < property.numRuns; from += SLICE) {
        const runs = property.cases(seed, from, Math.min(SLICE, property.numRuns - from));
        for (const [offset, run] of runs.entries()) yield { plan: planIndex, property, index: from + offset, run };
      }
    }
  }
}

/** --replay: only the case at the path ("valid:12:0:3"; without a property name, each property's). */
async function replayInto(
  tally: Tally,
  plans: readonly Plan[],
  replay: string,
  seed: number,
  envFor: (operation: Operation, counting: boolean) => RunEnv,
): Promise<void> {
  const match = /^(?:([A-Za-z][\w./#-]*):)?(\d+(?::\d+)*)$/.exec(replay.trim());
  if (!match) throw new SetupError(`--replay takes a path as printed with a finding, e.g. "valid:12:0:3", not "${replay}"`);
  const [, wanted, path = ''] = match;
  const chosen = plans.flatMap((plan, planIndex) => plan.properties.filter((p) => wanted === undefined || plan.key(p) === wanted).map((property) => ({ plan, planIndex, property })));
  if (chosen.length === 0) {
    const known = plans.flatMap((plan) => plan.properties.map((p) => plan.key(p))).join(', ');
    throw new SetupError(`--replay names no property of this run: "${wanted ?? ''}" (known: ${known}; the model property needs --stateful or --expect-unique-ids)`);
  }
  let sent = 0;
  for (const { plan, planIndex, property } of chosen) {
    let exchanges: Exchange[];
    try {
      exchanges = await property.replay(seed, path, envFor(plan.operation, true));
    } catch (error) {
      // A path from another property may not fit this one's generator.
      if (wanted === undefined) continue;
      throw new SetupError(`--replay ${replay} does not fit the ${plan.key(property)} property: ${error instanceof Error ? error.message : String(error)}`);
    }
    sent += exchanges.length;
    record(tally, exchanges, plan.context, { property: plan.key(property), startPath: path, plan: planIndex });
  }
  // A replay that sent nothing (a run index past the property's end) proves nothing: say so rather than "conforms".
  if (sent === 0) throw new SetupError(`--replay ${replay} sent no request: check the path and the seed printed with the finding`);
}

/** Phase 2: one finding per kind of problem, shrunk by fast-check where the case came from a property. */
async function findingsOf(
  tally: Tally,
  plans: readonly Plan[],
  settings: Settings,
  envFor: (operation: Operation) => RunEnv,
): Promise<Finding[]> {
  const perCheck = new Map<string, ProblemGroup[]>();
  for (const group of tally.groups.values()) {
    const list = perCheck.get(group.check) ?? [];
    list.push(group);
    perCheck.set(group.check, list);
  }
  const chosen: ProblemGroup[] = [];
  for (const check of CHECKS) {
    const groups = (perCheck.get(check.id) ?? []).sort((a, b) => b.count - a.count);
    chosen.push(...groups.slice(0, MAX_FINDINGS_PER_CHECK));
    const left = groups.slice(MAX_FINDINGS_PER_CHECK);
    const top = groups[MAX_FINDINGS_PER_CHECK - 1];
    if (left.length > 0 && top) top.count += left.reduce((n, g) => n + g.count, 0);
  }
  const deadline = performance.now() + SHRINK_BUDGET_MS;
  const perShrinkMs = Math.min(10_000, Math.max(2_000, settings.timeoutMs * 10));
  const findings: Array<Finding | undefined> = new Array(chosen.length);
  // A few shrinks side by side: each draws its own fresh ids, so they do not meet on the target.
  await concurrently(chosen, Math.min(4, settings.concurrency), async (group, index) => {
    findings[index] = await findingFor(group, plans, settings, envFor, Math.min(perShrinkMs, deadline - performance.now()));
  });
  return findings.filter((f): f is Finding => f !== undefined);
}

async function findingFor(
  group: ProblemGroup,
  plans: readonly Plan[],
  settings: Settings,
  envFor: (operation: Operation) => RunEnv,
  timeLimitMs: number,
): Promise<Finding> {
  const { first } = group;
  const plan = plans[first.plan] as Plan;
  const property = plan.properties.find((p) => plan.key(p) === first.property);
  const startPath = first.startPath;
  if (property !== undefined && startPath !== undefined && timeLimitMs > 0) {
    const shrunk = await property.shrink(settings.seed, startPath, envFor(plan.operation), (exchanges) => stillShows(group, exchanges, plan.context), timeLimitMs);
    const found = shrunk && occurrenceIn(group, shrunk.exchanges, plan.context);
    if (shrunk && found) return toFinding(group, { ...first, exchange: found.exchange, verdict: found.verdict }, settings, `${first.property}:${shrunk.path}`, true);
  }
  return toFinding(group, first, settings, startPath === undefined ? undefined : `${first.property}:${startPath}`, false);
}

function toFinding(group: ProblemGroup, occurrence: Occurrence, settings: Settings, path: string | undefined, shrunk: boolean): Finding {
  const { verdict, exchange } = occurrence;
  const evidence = verdict.evidence;
  const request = evidence?.request ?? exchange.request;
  const response = evidence?.response ?? exchange.response;
  const before = evidence ? [...(exchange.before ?? []), exchange.request] : (exchange.before ?? []);
  const warning = verdict.outcome === 'warn' && !settings.strict;
  const times = group.count > 1 ? ` [${group.count} cases like this]` : '';
  const finding: Finding = {
    check: group.check,
    severity: warning ? 'warning' : 'failure',
    message: `${verdict.outcome === 'warn' && settings.strict ? '(a warning, failed by --strict) ' : ''}${verdict.message}${times}`,
    expected: verdict.expected,
    expectation: verdict.expectation,
    actual: verdict.actual,
    request,
    response,
    curl: curlOf(before, request),
    seed: settings.seed,
    shrunk,
  };
  return {
    ...finding,
    ...(before.length > 0 ? { before } : {}),
    ...(path === undefined ? {} : { path }),
  };
}

function curlOf(before: readonly SentRequest[], request: SentRequest): string {
  return [...before, request].map((r) => toCurl(r)).join('\n');
}

function progressReporter(options: VerifyOptions, snapshot: () => Parameters<NonNullable<VerifyOptions['onProgress']>>[0]): (final: boolean) => void {
  const callback = options.onProgress;
  if (callback === undefined) return () => undefined;
  let last = 0;
  return (final) => {
    const now = performance.now();
    if (!final && now - last < 100) return;
    last = now;
    callback(snapshot());
  };
}
