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
import type { Operation } from '../../src/core/openapi/load-document.js';
import type { VerifyOptions, VerifyProgress, VerifyReport } from '../report.js';
import { checkResults, newTally, record } from './aggregate.js';
import { gatherEvidence } from './evidence.js';
import type { CaseSource } from './case-source.js';
import { cryptoRandom64 } from './ids.js';
import { planFor, plannedRequests, type Plan } from './plan.js';
import { resourcesOf } from './resources.js';
import { replayInto } from './replay.js';
import { sampleInto } from './sample.js';
import type { RunEnv } from './send.js';
import { replayOptionsOf, settingsOf } from './settings.js';
import { clientOrExplain, ensureReachable, loadOrExplain, verifiableOperations } from './setup.js';
import { findingsOf } from './shrink.js';

export async function runVerification(options: VerifyOptions, source: CaseSource): Promise<VerifyReport> {
  const started = performance.now();
  const settings = settingsOf(options);
  const document = await loadOrExplain(options.spec);
  const operations = verifiableOperations(document);
  const client = clientOrExplain(options.target, settings.concurrency, settings.timeoutMs);
  try {
    await ensureReachable(client, options.target);
    const planned = planFor(operations, source, settings, resourcesOf(document));
    const idSpaces = new Map(planned.map((plan) => [plan.operation, plan.ids]));
    const tally = newTally();
    let casesRun = 0;
    const plannedCount = plannedRequests(planned);
    const progress = progressReporter(options, () => ({
      casesRun,
      casesPlanned: Math.max(plannedCount, casesRun),
      failures: tally.failures,
      warnings: tally.warnings,
    }));
    const envFor = (operation: Operation, counting: boolean): RunEnv => ({
      client,
      operation,
      random: cryptoRandom64,
      ids: idSpaces.get(operation),
      onSent: counting
        ? () => {
            casesRun += 1;
            progress(false);
          }
        : () => undefined,
      // A case the client cannot send at all is skipped (send.ts); nothing reports it.
      onUnsendable: () => undefined,
    });

    const mainStarted = performance.now();
    // Which ids the target takes and how it refuses a taken one, learnt before the cases that depend on it.
    const evidence = await gatherEvidence(planned, source, settings, envFor);
    const plans = evidence.plans;
    for (const { plan, exchanges } of evidence.exchanges) {
      record(tally, exchanges, (plans[plan] as Plan).context, { property: 'evidence', startPath: undefined, plan });
    }
    if (options.replay !== undefined) {
      await replayInto(tally, plans, options.replay, settings.seed, envFor);
    } else {
      await sampleInto(tally, plans, source, settings, envFor);
    }
    const mainMs = performance.now() - mainStarted;
    progress(true);

    const shrinkStarted = performance.now();
    const findings = await findingsOf(tally, plans, settings, (operation) => envFor(operation, false));
    const shrinkMs = performance.now() - shrinkStarted;

    const checks = checkResults(tally, findings);
    return {
      target: options.target,
      spec: document.source,
      seed: settings.seed,
      runs: settings.runs,
      casesRun,
      durationMs: Math.round(performance.now() - started),
      casesPerSecond: mainMs > 0 ? Math.round((casesRun / mainMs) * 1000) : 0,
      shrinkMs: Math.round(shrinkMs),
      replayOptions: replayOptionsOf(options),
      checks,
      ok: checks.every((check) => check.status !== 'failed'),
    };
  } finally {
    await client.close();
  }
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
