/**
 * The conformance suite's public vocabulary: what `verify()` takes and what it reports. The
 * report is data (requests, seeds, paths, options); the reporters (console, JUnit, JSON,
 * regression files) read only these shapes and make all text from them, curl and replay
 * commands included.
 */
import type { RunOptionValues } from './options.js';

/** Every check the suite runs, by its stable id: derived from the checks' registry. */
export type { CheckId } from './checks/index.js';
import type { CheckId } from './checks/index.js';

export type CheckStatus = 'passed' | 'failed' | 'warned' | 'skipped';

/** A request exactly as sent: the body is the exact JSON text (int64 written from bigint). */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What this request is, e.g. "valid NewPlant" or "invalid: id outside int64". */
  readonly label: string;
  /** Set when its credentials are wrong on purpose (a case about authentication); other requests carry the run's token. */
  readonly credentialsAltered?: true;
  /** A create of a stateful sequence: the id of the item it made (sent by the client, or assigned by the server), which later steps name. */
  readonly creates?: { readonly property: string; readonly id: string; readonly assignedBy: 'client' | 'server' };
}

/** What came back; `error` is set instead of a status when there was no proper answer. */
export interface ReceivedResponse {
  readonly status?: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly durationMs: number;
  /** 'timeout' (no answer within --timeout-ms), 'connection' (reset, refused, closed early), 'too-large' (an answer over --max-answer-bytes, or its headers over 16 KiB: cut off unread). */
  readonly error?: { readonly kind: 'timeout' | 'connection' | 'too-large'; readonly message: string };
}

/** Defined with the regression runtime, which must stand alone in the folder it is copied to. */
export type { Expectation } from './reporters/regression-runtime.js';
import type { Expectation } from './reporters/regression-runtime.js';

/** One violation, shrunk to a minimal request where fast-check could shrink it. */
export interface Finding {
  readonly check: CheckId;
  /** What it counts as in this run: a check's warning is a failure with `strict`. */
  readonly severity: 'failure' | 'warning';
  /** What the check said (with `strict`, a 'warn' has severity 'failure'). */
  readonly outcome: 'fail' | 'warn';
  /** The check's account of the problem, for this request. */
  readonly message: string;
  /** How many requests showed this kind of problem (this one included). */
  readonly count: number;
  readonly expected: string;
  readonly actual: string;
  /** `expected` as data (see Expectation). */
  readonly expectation?: Expectation;
  readonly request: SentRequest;
  readonly response?: ReceivedResponse;
  /**
   * Requests sent before `request` in the same scenario, in order, that its answer depends on
   * (the first create of a re-used id, earlier steps of a model run). Absent for a lone request.
   */
  readonly before?: readonly SentRequest[];
  /** Replays the run that found it: `--seed <seed> --replay <path>` (with the report's replayOptions). */
  readonly seed: number;
  readonly path?: string;
  readonly shrunk: boolean;
  /**
   * false: flaky — the case, re-sent alone, did not show the problem again (seen among concurrent cases
   * only: a problem of load, interleaving or chance); a warning unless --strict. Never set for a case whose
   * first sending was an accepted write (re-sent, it meets what it stored itself): that stays what its check says.
   */
  readonly reproduced?: false;
  /** Why shrinking stopped before it was done, e.g. "shrinking cut short after 12 steps (time limit of 10 s)"; absent when it finished. */
  readonly shrinkNote?: string;
}

export interface CheckResult {
  readonly id: CheckId;
  readonly title: string;
  /** One line, the same as in docs/checks.md. */
  readonly description: string;
  readonly status: CheckStatus;
  /** How many requests this check judged. */
  readonly cases: number;
  readonly findings: readonly Finding[];
}

export interface VerifyReport {
  readonly target: string;
  readonly spec: string;
  /** The document's own title (its `info.title`), which names the report: "Swagger Petstore conformance of …". */
  readonly title?: string;
  readonly seed: number;
  readonly runs: number;
  readonly casesRun: number;
  readonly durationMs: number;
  readonly casesPerSecond: number;
  /** Time spent shrinking failures, reported apart from the run itself. */
  readonly shrinkMs: number;
  /** The options that shaped the run: a finding replays only under the same ones (e.g. --expect-unique-ids). */
  readonly replayOptions: ReplayOptions;
  readonly checks: readonly CheckResult[];
  /** Per operation, declared status and check: how many requests it judged, or why it judged none. */
  readonly coverage: readonly CoverageEntry[];
  /** Advice about the run itself (e.g. nearly every answer was 404: is the base path right?). */
  readonly hints: readonly string[];
  /** --dry-run: what would be sent, per operation; nothing was. */
  readonly plan?: readonly PlannedOperation[];
  /** Set when --fail-fast stopped the run before every case was sent. */
  readonly stoppedEarly?: string;
  /** The time each part of the run may take: stated so that a slow or silent target's run time is no surprise. */
  readonly timeBudget?: TimeBudget;
  /**
   * Set when the run was halted before it was done (--time-budget-ms spent, an abort signal, the CLI's
   * SIGINT/SIGTERM, an internal error): why, and how far it got. Such a run is never `ok`.
   */
  readonly incomplete?: string;
  /** What the run created and could not delete again (none, or --keep-created, in a run that left the target as it found it). */
  readonly leftBehind?: readonly LeftBehindItems[];
  /** True when no check failed (warnings count as failures only with `strict`). */
  readonly ok: boolean;
}

export interface TimeBudget {
  /** Each request's answer must come within this (--timeout-ms): a target that never answers costs this per request. */
  readonly requestTimeoutMs: number;
  /** The whole run's limit (--time-budget-ms); absent: none. */
  readonly runMs?: number;
  /** Shrinking's own limit, after every case was sent. */
  readonly shrinkMs: number;
}

/** Items of one resource the run created and left in the target, for one reason. */
export interface LeftBehindItems {
  /** The resource's name ("posts"). */
  readonly resource: string;
  /** Why they stay: the document has no delete, the delete was refused (its status), the answer named no id, --keep-created. */
  readonly reason: string;
  readonly count: number;
  /** Some of their ids (at most ten); fewer than `count` where answers named none. */
  readonly ids: readonly string[];
}

/** An operation as the plan has it: the kinds of request sent (and how many runs each), what is skipped and why. */
export interface PlannedOperation {
  readonly operation: string;
  readonly properties: readonly { readonly name: string; readonly runs: number }[];
  readonly skipped: readonly { readonly what: string; readonly reason: string }[];
}

/**
 * One cell of the coverage report: an operation × a declared status × a check, with the number of
 * requests judged there; or, for a check that judged none of an operation's requests, why (`skipped`).
 */
export interface CoverageEntry {
  /** "createPlant (POST /plants)". */
  readonly operation: string;
  /** The declared response the answers counted under ("201", "4XX", "default"), "418 (undeclared)", "timeout"; "-" when skipped. */
  readonly status: string;
  readonly check: CheckId;
  readonly cases: number;
  /** Why nothing was judged: no credentials (and the flag to pass), excluded by --checks, not applicable, … */
  readonly skipped?: string;
}

/** The options that change which requests are sent or how answers are judged, as given to `verify()`. */
export interface ReplayOptions {
  /** Whether a token was given; its value is never reported. */
  readonly token: boolean;
  /** The document, when it was given as a path. */
  readonly spec?: string;
  readonly expectUniqueIds: boolean;
  readonly stateful: boolean;
  readonly tokensValidated: boolean;
  readonly strict: boolean;
  /** Further credential flags as written in a replay command, secrets as variables: `--auth "basic:$BASIC_AUTH"`. */
  readonly credentials?: readonly string[];
}

export interface VerifyProgress {
  readonly casesRun: number;
  readonly casesPlanned: number;
  readonly failures: number;
  readonly warnings: number;
}

/**
 * verify()'s options: those of the verify option table (contracts/options.ts, where each is
 * described with its default and range), with a parsed document allowed as `spec` and a progress callback.
 */
export type VerifyOptions = Omit<RunOptionValues, 'target' | 'spec'> & {
  /** Base URL of the server under test, e.g. http://127.0.0.1:4010 */
  readonly target: string;
  /** OpenAPI document (path or parsed object); the bundled Plant Store document by default. */
  readonly spec?: string | object;
  readonly onProgress?: (progress: VerifyProgress) => void;
  /** Ends the run early when aborted: nothing more is sent or shrunk, and the report is `incomplete` (the abort's reason says why). */
  readonly signal?: AbortSignal;
};
