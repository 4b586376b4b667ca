/**
 * The run: load the document, check the target answers, fire every property's sampled cases
 * concurrently through the Pool, judge each exchange with every check, then shrink one case per
 * kind of problem with fast-check from its seed and run index, and return the report as data.
 *
 * Why two phases: fast-check runs a property's cases one after another, which would leave the
 * Pool idle while each answer comes back. fc.sample draws exactly the values fc.check draws for
 * the same seed, so the cases are sampled up front and sent C at a time (sample.ts); only a
 * failing case is handed back to fast-check (`path` = its run index) to be shrunk (shrink.ts),
 * which is sequential but rare.
 */
import type { LoadedDocument, Operation } from '../../src/core/openapi/load-document.js';
import { CHECKS, type Exchange } from '../checks/index.js';
import type { HttpClient } from '../client/http-client.js';
import type { ReplayOptions, VerifyOptions, VerifyProgress, VerifyReport } from '../report.js';
import { checkResults, newTally, record, snapshotOf, type Tally } from './aggregate.js';
import { credentialHeaderNames, runCredentials } from './auth.js';
import { gatherEvidence } from './evidence.js';
import { signInWhereNeeded } from './sign-in.js';
import { ownSessionClient, sessionSparingClient } from './own-session.js';
import { keptSessionClient } from './session-keeper.js';
import { secretMap } from '../client/secrets.js';
import type { CaseSource } from './case-source.js';
import { coverageOf, operationLabel } from './coverage.js';
import { cryptoRandom64 } from './ids.js';
import { planInBreaths, plannedRequests, unplannedOperations, type Plan } from './plan.js';
import { breather } from './breathe.js';
import { inferResources } from '../../src/core/resources/infer.js';
import { replayInto } from './replay.js';
import { sampleInto } from './sample.js';
import type { RunEnv } from './send.js';
import { replayOptionsOf, settingsOf, withCredentials } from './settings.js';
import { clientOrExplain, ensureReachable, loadOrExplain, verifiableOperations } from './setup.js';
import { findingsOf, SHRINK_BUDGET_MS } from './shrink.js';
import { abortReason, haltable, haltOf, type Halt } from './halt.js';
import { unloadedReport } from './unloaded.js';
import { leftBehindCollector } from './left-behind.js';
import { itemSupply } from './item-supply.js';
import { concurrently } from './concurrently.js';

export async function runVerification(options: VerifyOptions, source: CaseSource): Promise<VerifyReport> {
  const started = performance.now();
  // From the start a signal or the time budget halts the run: reading a large document (seconds, for
  // DigitalOcean's or Box's) is part of the time a user bounds with --time-budget-ms, planning too (breathe.ts).
  const halt = haltOf(options.signal, options.dryRun === true ? undefined : settingsOf(options).timeBudgetMs, started);
  try {
    return await runHalting(options, source, halt, started);
  } finally {
    halt.dispose();
  }
}

async function runHalting(options: VerifyOptions, source: CaseSource, halt: Halt, started: number): Promise<VerifyReport> {
  const document = await loadOrExplain(options.spec, halt.signal);
  // Not read: the halt's signal was aborted, which it is only once the run is halted.
  if (document === undefined) return unloadedReport(options, started, halt.reason() ?? abortReason(options.signal));
  const operations = verifiableOperations(document);
  // Sign-ups and log-ins answer by state the schema cannot show: the run signs in by evidence where it has no token.
  // One reading of the document's data model, the one serve keeps state by: its resources and its sign-in.
  const model = inferResources(document);
  // A halted run sends nothing, a sign-in included.
  const signedIn = halt.reason() === undefined ? await signInWhereNeeded(options, operations, source, model.signIn) : { options, exchanges: [] };
  const credentials = runCredentials(signedIn.options, document.operations);
  const settings = withCredentials(settingsOf(signedIn.options), credentials);
  const plans = await planInBreaths(operations, source, settings, [...model.resources], () => halt.reason() !== undefined);
  const planning = plans.map((plan) => plan.operation);
  const planned: Plan[] = [
    ...plans,
    ...unplannedOperations(document.operations, planning, (operation) =>
      operations.includes(operation) ? 'the run was halted before its plan was made' : 'a webhook: the API sends it, so the suite does not',
    ),
  ];
  const replayOptions: ReplayOptions = { ...replayOptionsOf(options), credentials: credentials.replayFlags };
  const timeBudget = {
    requestTimeoutMs: settings.timeoutMs,
    ...(settings.timeBudgetMs === undefined ? {} : { runMs: settings.timeBudgetMs }),
    shrinkMs: SHRINK_BUDGET_MS,
  };
  const base = { target: options.target, spec: document.source, title: document.title, seed: settings.seed, runs: settings.runs, replayOptions, timeBudget };
  if (options.dryRun === true) {
    const tally = newTally(new Set(settings.excludedChecks.keys()));
    return {
      ...base,
      casesRun: 0,
      durationMs: Math.round(performance.now() - started),
      casesPerSecond: 0,
      shrinkMs: 0,
      checks: checkResults(tally, []),
      coverage: coverageOf(planned, tally, settings.excludedChecks),
      hints: [],
      plan: planned.map((plan) => ({
        operation: operationLabel(plan),
        properties: plan.properties.map((property) => ({ name: plan.key(property), runs: property.numRuns })),
        skipped: plan.skipped ?? [],
      })),
      ok: true,
    };
  }
  const answers = { total: 0, notFound: 0 };
  const client = haltable(counting(clientOrExplain(options.target, settings, credentials.secrets), answers), halt);
  // A log-out's cases each end a session of their own, never the run's (own-session.ts).
  const logOut = model.signIn?.logOut;
  const session = signedIn.session;
  const sessionClient =
    logOut === undefined ? undefined : session === undefined ? sessionSparingClient(client) : ownSessionClient(client, session, secretMap(credentials.secrets));
  // A session its answer said expires (expires_in) is renewed before it does (session-keeper.ts).
  const keptClient =
    session?.expiresIn === undefined ? client : keptSessionClient(client, { ...session, expiresIn: session.expiresIn }, secretMap(credentials.secrets));
  try {
    try {
      await ensureReachable(client, options.target);
    } catch (error) {
      // Halted while probing: the probe was dropped, which says nothing about the target.
      if (halt.reason() === undefined) throw error;
    }
    const identifiers = new Map(planned.map((plan) => [plan.operation, plan.identifier]));
    const owning = new Map(planned.flatMap((plan) => (plan.owning === undefined ? [] : [[plan.operation, plan.owning.around] as const])));
    const tidies = new Map(planned.flatMap((plan) => (plan.tidy === undefined ? [] : [[plan.operation, plan.tidy] as const])));
    const leftBehind = leftBehindCollector();
    const namingPathItem = new Set(planned.filter((plan) => plan.bodyNamesPathItem === true).map((plan) => plan.operation));
    const tally = newTally(new Set(settings.excludedChecks.keys()), new Map(planned.map((plan, index) => [plan.operation, index])));
    let casesRun = 0;
    const plannedCount = plannedRequests(planned);
    // What had been judged when the run was halted: answers dropped after it are not judged.
    let halted: { readonly tally: Tally; readonly casesRun: number } | undefined;
    halt.onHalt(() => (halted = { tally: snapshotOf(tally), casesRun }));
    const progress = progressReporter(options, () => ({
      casesRun,
      casesPlanned: Math.max(plannedCount, casesRun),
      failures: tally.failures,
      warnings: tally.warnings,
    }));
    // Items create cases are done with, for the delete cases beside them (item-supply.ts): open in the main phase only.
    const supply = itemSupply(new Set(planned.flatMap((plan) => (plan.owning?.takes === undefined ? [] : [plan.owning.takes]))));
    let supplying = true;
    const extraHeaders = new Map<Operation, RunEnv['extraHeaders']>();
    const headersFor = (operation: Operation): RunEnv['extraHeaders'] => {
      if (Object.keys(credentials.headers).length === 0) return undefined;
      let extra = extraHeaders.get(operation);
      if (extra === undefined) {
        extra = { headers: credentials.headers, credentialNames: credentialHeaderNames(operation) };
        extraHeaders.set(operation, extra);
      }
      return extra;
    };
    const envFor = (operation: Operation, counting: boolean): RunEnv => {
      const extra = headersFor(operation);
      const around = owning.get(operation);
      const tidy = tidies.get(operation);
      return {
        client: operation === logOut && sessionClient !== undefined ? sessionClient : keptClient,
        operation,
        random: cryptoRandom64,
        identifier: identifiers.get(operation),
        ...(namingPathItem.has(operation) ? { bodyNamesPathItem: true as const } : {}),
        ...(around === undefined ? {} : { around }),
        // Its deletes are not counted as cases.
        ...(tidy === undefined ? {} : { tidy: (exchanges: readonly Exchange[]) => tidy(envFor(operation, false), exchanges) }),
        leftBehind,
        ...(supplying ? { supply } : {}),
        onSent: counting
          ? () => {
              casesRun += 1;
              progress(false);
            }
          : () => undefined,
        // A case the client cannot send at all is skipped (send.ts); nothing reports it.
        onUnsendable: () => undefined,
        ...(extra === undefined ? {} : { extraHeaders: extra }),
      };
    };

    const failedFast = (): boolean => settings.failFast && (tally.failures > 0 || (settings.strict && tally.warnings > 0));
    const stop = (): boolean => halt.reason() !== undefined || failedFast();
    // Start-up, whatever the number of runs: the checks compile their schemas now, not at each operation's first answer
    // (a breath between operations, so that a signal is heard: DigitalOcean's take 21 s; a halted run needs none).
    const breathe = breather();
    for (const check of CHECKS) {
      if (settings.excludedChecks.has(check.id) || check.prepare === undefined) continue;
      for (const plan of planned) {
        await breathe();
        if (halt.reason() !== undefined) break;
        check.prepare(plan.operation);
      }
    }
    const mainStarted = performance.now();
    // Which ids the target takes and how it refuses a taken one, learnt before the cases that depend on
    // it; sample.ts sends the cases that draw no id meanwhile (the target's first answers are its slowest).
    const learning = (async (): Promise<Plan[]> => {
      const evidence = await gatherEvidence(planned, source, settings, envFor, stop);
      const learnt = evidence.plans;
      for (const { operation, exchange } of signedIn.exchanges) {
        const index = learnt.findIndex((plan) => plan.operation === operation);
        if (index !== -1) record(tally, [exchange], (learnt[index] as Plan).context, { property: 'sign-in', startPath: undefined, plan: index });
      }
      for (const { plan, exchanges } of evidence.exchanges) {
        const probed = learnt[plan] as Plan;
        record(tally, exchanges, probed.context, { property: 'evidence', startPath: undefined, plan });
      }
      return learnt;
    })();
    let plans: Plan[];
    if (options.replay !== undefined) {
      plans = await learning;
      await replayInto(tally, plans, options.replay, settings.seed, envFor);
    } else {
      plans = await sampleInto(tally, planned, learning, source, settings, envFor, stop);
    }
    // What no delete case took is deleted now, within the main phase it belongs to.
    supplying = false;
    await concurrently(supply.close(), settings.concurrency, (item) => item.remove());
    const mainMs = performance.now() - mainStarted;
    halt.endBudget();
    progress(true);
    const judged = halted?.tally ?? tally;
    const sent = halted?.casesRun ?? casesRun;
    const stoppedEarly =
      // The plan's count is an estimate (lifecycles and evidence probes vary), so it cannot say whether sending stopped early.
      failedFast() && halted === undefined
        ? `--fail-fast: stopped after the first failure, ${casesRun} of about ${Math.max(plannedCount, casesRun)} requests sent`
        : undefined;

    const shrinkStarted = performance.now();
    // Under --replay, the findings' steps are sent again too, with ids drawn fresh again: the env says so, and the labels with it.
    const shrinkEnv = (operation: Operation): RunEnv =>
      options.replay === undefined ? envFor(operation, false) : { ...envFor(operation, false), replaying: true };
    const leftMs = settings.timeBudgetMs === undefined ? undefined : Math.max(0, settings.timeBudgetMs - (performance.now() - started));
    const unshrunk = snapshotOf(judged);
    let findings = await findingsOf(judged, plans, settings, shrinkEnv, halted === undefined ? { leftMs } : { noShrinking: 'the run was halted' });
    const haltedWhileShrinking = halted === undefined && halt.reason() !== undefined;
    // Halted while shrinking: what the shrinks saw after it is not the target's doing, so the findings stand as first found.
    if (haltedWhileShrinking) findings = await findingsOf(unshrunk, plans, settings, shrinkEnv, { noShrinking: 'the run was halted' });
    const shrinkMs = performance.now() - shrinkStarted;
    const reason = halt.reason();
    const incomplete =
      reason === undefined
        ? undefined
        : haltedWhileShrinking
          ? `${reason} while shrinking: every request was sent and judged, the findings are reported unshrunk`
          : `${reason}: ${sent} of about ${Math.round(Math.max(plannedCount, sent))} requests sent and judged, the findings are reported unshrunk`;

    const checks = checkResults(haltedWhileShrinking ? unshrunk : judged, findings);
    const hint = basePathHint(answers, options.target, document);
    return {
      ...base,
      casesRun: sent,
      durationMs: Math.round(performance.now() - started),
      casesPerSecond: mainMs > 0 ? Math.round((sent / mainMs) * 1000) : 0,
      shrinkMs: Math.round(shrinkMs),
      checks,
      coverage: coverageOf(plans, judged, settings.excludedChecks),
      hints: hint === undefined ? [] : [hint],
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
      ...(incomplete === undefined ? {} : { incomplete }),
      leftBehind: leftBehind.list(),
      // An incomplete run is never a pass: what was not sent was not judged.
      ok: incomplete === undefined && checks.every((check) => check.status !== 'failed'),
    };
  } finally {
    halt.dispose();
    await client.close();
  }
}

/** The client, counting its answers and the 404s among them (for basePathHint). */
function counting(client: HttpClient, answers: { total: number; notFound: number }): HttpClient {
  return {
    ...client,
    send: async (request, overrides) => {
      const response = await client.send(request, overrides);
      if (response.status !== undefined) {
        answers.total += 1;
        if (response.status === 404) answers.notFound += 1;
      }
      return response;
    },
  };
}

/** Nearly every answer a 404 (90% of 20 or more): the target's base path is the likely cause (issue 10). */
export function basePathHint(answers: { total: number; notFound: number }, target: string, document: Pick<LoadedDocument, 'operations'>): string | undefined {
  if (answers.total < 20 || answers.notFound < answers.total * 0.9) return undefined;
  const servers = [...new Set(document.operations.flatMap((operation) => (operation.servers ?? []).map((server) => server.url)))];
  const paths = servers.map((url) => {
    try {
      return new URL(url, 'http://placeholder').pathname.replace(/\/+$/, '');
    } catch {
      return '';
    }
  });
  const origin = new URL(target).origin;
  const suggestion = paths.find((path) => path !== '' && !target.replace(/\/+$/, '').endsWith(path));
  const said = servers.length === 0 ? 'the document declares no servers' : `the document's servers say ${servers.join(', ')}`;
  return (
    `${answers.notFound} of ${answers.total} answers were 404: is the base path right? ${said}` +
    (suggestion === undefined ? '; give the path the API is served under in --target' : `; try --target ${origin}${suggestion}`)
  );
}

/** Calls onProgress at most every 100 ms while the run goes on, and once at the end. */
function progressReporter(options: VerifyOptions, snapshot: () => VerifyProgress): (final: boolean) => void {
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
