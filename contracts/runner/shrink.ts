/**
 * Phase 2: one finding per kind of problem, shrunk by fast-check where the case came from a
 * property: the run at the case's index is handed back to fast-check (`path` = its index), which
 * re-sends smaller values while the same kind of problem still shows. Sequential per finding, but rare.
 */
import type { Operation } from '../../src/core/openapi/load-document.js';
import { maskBody } from '../../src/core/resources/secret-members.js';
import { CHECKS, type Exchange } from '../checks/index.js';
import type { Finding } from '../report.js';
import { occurrenceIn, type Occurrence, type ProblemGroup, type Tally } from './aggregate.js';
import { concurrently } from './concurrently.js';
import type { Plan } from './plan.js';
import type { RunEnv } from './send.js';
import type { Settings } from './settings.js';

/** Shrunk findings per check at most; further kinds of problem are counted, not shrunk. */
const MAX_FINDINGS_PER_CHECK = 5;
/** All shrinking together stops after this; what is left is reported as found. */
export const SHRINK_BUDGET_MS = 60_000;
/** A case that timed out is shrunk with this share of --timeout-ms per attempt (at least the floor): a whole timeout a step would spend the budget in a few steps. */
const TIMEOUT_SHARE = 4;
const MIN_SHRINK_TIMEOUT_MS = 200;

/** `limit`: what is left of the run's time budget (none: none is set), or why nothing is shrunk at all (the run was halted). */
export async function findingsOf(
  tally: Tally,
  plans: readonly Plan[],
  settings: Settings,
  envFor: (operation: Operation) => RunEnv,
  limit: { readonly leftMs?: number | undefined; readonly noShrinking?: string } = {},
): Promise<Finding[]> {
  const chosen = chosenGroups(tally);
  if (limit.noShrinking !== undefined) {
    const note = `not shrunk: ${limit.noShrinking}`;
    return chosen.map((group) => unshrunkFinding(group, settings, note));
  }
  const deadline = performance.now() + Math.min(SHRINK_BUDGET_MS, limit.leftMs ?? SHRINK_BUDGET_MS);
  const spent =
    limit.leftMs !== undefined && limit.leftMs < SHRINK_BUDGET_MS
      ? 'the time budget (--time-budget-ms)'
      : `the shrinking budget of ${SHRINK_BUDGET_MS / 1000} s`;
  const perShrinkMs = Math.min(10_000, Math.max(2_000, settings.timeoutMs * 10));
  // First each case re-sent alone, one after another, so "alone" is true: side by side, an interleaving could show it again.
  const alone: Array<boolean | undefined> = [];
  for (const group of chosen) alone.push(performance.now() < deadline ? await showsAlone(group, plans, settings, envFor) : undefined);
  const findings: Array<Finding | undefined> = new Array(chosen.length);
  // Then a few shrinks side by side: each draws its own fresh ids, so they do not meet on the target.
  await concurrently(chosen, Math.min(4, settings.concurrency), async (group, index) => {
    findings[index] =
      alone[index] === false
        ? notAgain(group, settings, attempt(group, plans, settings, envFor)?.how ?? '')
        : await findingFor(group, plans, settings, envFor, Math.min(perShrinkMs, deadline - performance.now()), spent, alone[index] === true);
  });
  return findings.filter((f): f is Finding => f !== undefined);
}

/** What re-sending a group's case takes: its plan, property and environment (undefined for a fixed probe). */
function attempt(group: ProblemGroup, plans: readonly Plan[], settings: Settings, envFor: (operation: Operation) => RunEnv) {
  const { first } = group;
  const plan = plans[first.plan] as Plan;
  const property = plan.properties.find((p) => plan.key(p) === first.property);
  if (property === undefined || first.startPath === undefined) return undefined;
  const timedOut = first.exchange.response.error?.kind === 'timeout';
  const attemptMs = Math.max(MIN_SHRINK_TIMEOUT_MS, Math.round(settings.timeoutMs / TIMEOUT_SHARE));
  const base = timedOut && attemptMs < settings.timeoutMs ? withTimeout(envFor(plan.operation), attemptMs) : envFor(plan.operation);
  const how = !timedOut || attemptMs >= settings.timeoutMs ? '' : `, each attempt with a timeout of ${attemptMs} ms (a quarter of --timeout-ms)`;
  // The env's tidy deletes each attempt's creates, as in the run (property.ts runCase): shrinking re-sends a create dozens of times.
  return { plan, property, startPath: first.startPath, env: base, how };
}

/** Whether the group's case, re-sent alone, shows its problem again (undefined: nothing to re-send, or the replay threw). */
async function showsAlone(
  group: ProblemGroup,
  plans: readonly Plan[],
  settings: Settings,
  envFor: (operation: Operation) => RunEnv,
): Promise<boolean | undefined> {
  const how = attempt(group, plans, settings, envFor);
  if (how === undefined) return undefined;
  try {
    return occurrenceIn(group, await how.property.replay(settings.seed, how.startPath, how.env), how.plan.context) !== undefined;
  } catch {
    return undefined; // the shrinker tries again and says what it found
  }
}

/** The most frequent kinds of problem of each check, in registry order; the rest count towards the last one kept. */
function chosenGroups(tally: Tally): ProblemGroup[] {
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
  return chosen;
}

async function findingFor(
  group: ProblemGroup,
  plans: readonly Plan[],
  settings: Settings,
  envFor: (operation: Operation) => RunEnv,
  timeLimitMs: number,
  spent: string,
  shownAlone: boolean,
): Promise<Finding> {
  const { first } = group;
  const how = attempt(group, plans, settings, envFor);
  if (how === undefined) return unshrunkFinding(group, settings);
  if (timeLimitMs <= 0) {
    return unshrunkFinding(group, settings, `not shrunk: ${spent} was spent${spent.startsWith('the shrinking') ? ' on other findings' : ''}`);
  }
  const { plan, property, startPath, env } = how;
  let steps = 0;
  const stillShows = (exchanges: readonly Exchange[]): boolean => {
    steps += 1;
    return occurrenceIn(group, exchanges, plan.context) !== undefined;
  };
  const shrunk = await property.shrink(settings.seed, startPath, env, stillShows, timeLimitMs);
  const found = shrunk && occurrenceIn(group, shrunk.exchanges, plan.context);
  if (shrunk && found) {
    const note = shrunk.interrupted
      ? `shrinking cut short after ${steps} steps (time limit of ${(timeLimitMs / 1000).toFixed(1)} s${how.how}): the case is smaller, perhaps not minimal`
      : undefined;
    return toFinding(group, { ...first, exchange: found.exchange, verdict: found.verdict }, settings, `${first.property}:${shrunk.path}`, true, note);
  }
  // Re-sent alone it showed the problem again: only the shrinker's attempts did not.
  if (shownAlone)
    return unshrunkFinding(group, settings, `not shrunk: re-sent alone the case showed the problem again, the shrinker's attempts did not${how.how}`);
  return notAgain(group, settings, how.how);
}

/** A case that, re-sent alone, did not show its problem again. */
function notAgain(group: ProblemGroup, settings: Settings, how: string): Finding {
  // The first sending was an accepted write: re-sent, the case meets what it stored itself (its id taken), so "not again" proves nothing.
  if (changedTheTarget(group.first.exchange)) {
    return unshrunkFinding(
      group,
      settings,
      `not shrunk: the first sending was accepted and changed the target, so the case re-sent alone meets what it stored${how}`,
    );
  }
  // Seen among concurrent cases, not again alone: flaky, or a problem of load or interleaving. A warning saying so (--strict fails it).
  return {
    ...unshrunkFinding(group, settings, `did not reproduce alone: re-sent on its own, the case did not show the problem again${how}`),
    ...(settings.strict ? {} : { severity: 'warning' as const }),
    reproduced: false,
  };
}

/** An accepted request that may have stored something: a 2xx to anything but a read. */
function changedTheTarget(exchange: Exchange): boolean {
  const status = exchange.response.status;
  const method = exchange.request.method.toUpperCase();
  return status !== undefined && status >= 200 && status < 300 && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/** The group's first occurrence as found, not shrunk; the note says why. */
function unshrunkFinding(group: ProblemGroup, settings: Settings, note?: string): Finding {
  return toFinding(group, group.first, settings, unshrunkPath(group), false, note);
}

/** The replay path of the group's first occurrence, as found (unshrunk); none for a fixed probe. */
function unshrunkPath(group: ProblemGroup): string | undefined {
  return group.first.startPath === undefined ? undefined : `${group.first.property}:${group.first.startPath}`;
}

/** The environment with a shorter per-request timeout (shrinking a case that timed out). */
function withTimeout(env: RunEnv, timeoutMs: number): RunEnv {
  const client = env.client;
  return { ...env, client: { ...client, send: (request, overrides) => client.send(request, { timeoutMs, ...overrides }) } };
}

/** The finding as data: the reporters make its message, curl and replay command. */
function toFinding(group: ProblemGroup, occurrence: Occurrence, settings: Settings, path: string | undefined, shrunk: boolean, shrinkNote?: string): Finding {
  const { verdict, exchange } = occurrence;
  const evidence = verdict.evidence;
  // Requests carry "$TOKEN"-style variables, never a secret: only the HTTP client fills them in (client/secrets.ts).
  const request = evidence?.request ?? exchange.request;
  // An answer's secrets (a token issued to a user a case signed up, a refresh token) are masked as the journal masks them.
  const answered = evidence?.response ?? exchange.response;
  const response = { ...answered, body: maskBody(answered.body) };
  const before = evidence ? [...(exchange.before ?? []), exchange.request] : (exchange.before ?? []);
  const finding: Finding = {
    check: group.check,
    severity: verdict.outcome === 'warn' && !settings.strict ? 'warning' : 'failure',
    outcome: verdict.outcome,
    message: verdict.message,
    count: group.count,
    expected: verdict.expected,
    expectation: verdict.expectation,
    actual: maskBody(verdict.actual),
    request,
    response,
    seed: settings.seed,
    shrunk,
  };
  return {
    ...finding,
    ...(before.length > 0 ? { before } : {}),
    ...(path === undefined ? {} : { path }),
    ...(shrinkNote === undefined ? {} : { shrinkNote }),
  };
}
