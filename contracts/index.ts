/** The conformance suite: `verify()` and its reporters, for programs and test suites. */
export { verify, SetupError, DEFAULTS } from './runner/verify.js';
export { CHECKS } from './checks/index.js';
export { toCurl } from './client/curl.js';
export type {
  CheckId,
  CheckResult,
  CheckStatus,
  Finding,
  ReceivedResponse,
  SentRequest,
  VerifyOptions,
  VerifyProgress,
  VerifyReport,
} from './report.js';
