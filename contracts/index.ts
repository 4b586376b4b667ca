/** The conformance suite: `verify()` and its reporters, for programs and test suites. */
export { verify, SetupError, DEFAULTS } from './runner/verify.js';
export { CHECKS } from './checks/index.js';
export { toCurl } from './client/curl.js';
export { renderConsoleReport, renderFinding, progressLine } from './reporters/console.js';
export { findingCurl, findingMessage } from './reporters/finding.js';
export { replayCommand, replayFlagsOf } from './reporters/replay.js';
export { renderJUnit } from './reporters/junit.js';
export { renderJson, jsonReport, type JsonReport, type JsonFinding, type JsonCheckResult } from './reporters/json.js';
export { emitRegressions, regressionSource } from './reporters/regressions.js';
export type {
  CheckId,
  CheckResult,
  CheckStatus,
  Expectation,
  Finding,
  ReceivedResponse,
  ReplayOptions,
  SentRequest,
  VerifyOptions,
  VerifyProgress,
  VerifyReport,
} from './report.js';
