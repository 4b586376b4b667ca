// Types shared by the bench scripts (checked by tsconfig.bench.json): what bench/load.mjs is told and
// answers, a tracked child process, and the row bench/lib/row.mjs measures for each target.
import type { ChildProcess } from 'node:child_process';
import type { Target } from '../targets.mjs';

export type Workload = 'create' | 'list' | 'cycle';

/** bench/load.mjs's config (JSON in argv[2]); missing fields take its defaults. */
export interface LoadConfig {
  url: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  token: string;
  idMode: 'int64' | 'safe';
  idBase: number;
  workload: Workload;
  preload: number;
}

/** One autocannon run, as bench/load.mjs summarizes it. */
export interface LoadSummary {
  durationSeconds: number;
  samples: number;
  requests: { mean: number; median: number; stddev: number; min: number; max: number; total: number; sent: number };
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  responses2xx: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  resets: number;
}

/** The measured run, with the load generator's own CPU while measuring (100 = one core). */
export interface LoadMeasure extends LoadSummary {
  loadGeneratorCpuPercent: number;
}

/** The ids a create workload issued. */
export interface LoadIds {
  mode: 'int64' | 'safe';
  base: number;
  issued: number;
  issuedAbove2p53: number;
  last: number;
  firstBody: string | undefined;
}

export interface LoadResult {
  type: 'result';
  warmup: LoadSummary | null;
  measure: LoadMeasure;
  ids: LoadIds | undefined;
}

/** What bench/load.mjs sends over IPC. */
export type LoadMessage = { type: 'measuring' } | LoadResult | { type: 'error'; message: string };

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What bench/lib/children.mjs's track() adds to a child process (killed on exit, signals and the run's time limit). */
export interface Tracked {
  exited: Promise<ExitInfo>;
  exitInfo?: ExitInfo;
  /** Spawned detached (its own process group): killed with the group. */
  detachedGroup?: boolean;
}

export type TrackedChild = ChildProcess & Tracked;

/** An answer to one POST /plants (the body cut to 300 characters). */
export interface Answer {
  status: number;
  body: string;
}

/** The part of bench/run.mjs's config a row uses (bench/post-rounds.mjs makes its own). */
export interface RowConfig {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  settleSeconds: number;
}

/** What every row holds, whatever became of it; a row judged against another holds both the other's id and its bar. */
export type RowHead = RowBase & ({ compareTo: string; bar: number | null } | { compareTo?: undefined; bar?: undefined });

interface RowBase {
  id: string;
  label: string;
  role: NonNullable<Target['role']> | null;
  optional: boolean;
  settleWaitMs?: number;
  command?: string;
  readyMs?: number;
  probe?: Answer;
}

/** What a row that ran holds besides: the load generator's figures and the server's CPU and memory. */
export interface Measured extends LoadMeasure {
  warmup: { requests: number; non2xx: number; statusCodes: Record<string, number> } | null;
  ids: LoadIds | undefined;
  serverCpuPercent: number;
  otherCpuPercent: number;
  disturbed: boolean;
  peakRssMB: number;
  endRssMB: number;
  serverSubprocesses?: number;
  repeatedIdProbe?: { body: string; status: number; error?: undefined } | { body: string; status?: undefined; error: string };
}

/** A row that did not run has none of the measured fields (so a report may read them from any row). */
type Unmeasured = { [K in keyof Measured]?: undefined };

export type OkRow = RowHead & Measured & { status: 'ok'; reason?: undefined; serverOutput?: undefined };
export type SkippedRow = RowHead & Unmeasured & { status: 'skipped'; reason: string; serverOutput?: undefined };
export type FailedRow = RowHead & Unmeasured & { status: 'failed'; reason: string; serverOutput: string };

/** One target's row in the report and in bench/results/latest.json. */
export type Row = OkRow | SkippedRow | FailedRow;

/** A row while bench/lib/row.mjs fills it in. */
export type RowDraft = RowHead & Partial<Measured> & { status?: Row['status']; reason?: string; serverOutput?: string };

/** What bench/run.mjs's other sections measured (each null when skipped). */
export type StartupResult = Awaited<ReturnType<typeof import('../startup.mjs').benchStartup>>;
export type LargeResult = Awaited<ReturnType<typeof import('../large-document.mjs').benchLargeDocuments>>;
export type VerifyResult = Awaited<ReturnType<typeof import('../verify-speed.mjs').benchVerifySpeed>>;
