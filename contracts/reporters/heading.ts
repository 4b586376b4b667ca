/** A report's heading, the same in the console and JUnit. */
import type { VerifyReport } from '../report.js';

/** Named after the document's own title: "Plant Store conformance of http://…", "Museum API conformance of …". */
export function reportTitle(report: Pick<VerifyReport, 'title' | 'target'>): string {
  return `${report.title ?? 'OpenAPI document'} conformance of ${report.target}`;
}
