/** The VerifyReport as JSON, for other tools (stable: it is the public report type as is). */
import type { VerifyReport } from '../report.js';

export function renderJson(report: VerifyReport): string {
  // No bigint reaches the report (bodies are text), so plain JSON.stringify is exact.
  return `${JSON.stringify(report, null, 2)}\n`;
}
