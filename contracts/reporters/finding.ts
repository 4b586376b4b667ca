/** A finding in words, the same in every report: its message and the curl commands that replay its requests. */
import { toCurl } from '../client/curl.js';
import type { Finding } from '../report.js';

/** The check's message, marked when --strict made a warning fail, with how many requests showed the problem. */
export function findingMessage(finding: Pick<Finding, 'message' | 'outcome' | 'severity' | 'count'>): string {
  const strict = finding.outcome === 'warn' && finding.severity === 'failure' ? '(a warning, failed by --strict) ' : '';
  const times = finding.count > 1 ? ` [${finding.count} cases like this]` : '';
  return `${strict}${finding.message}${times}`;
}

/** Ready curl commands, one a line: the steps before the request, then the request. */
export function findingCurl(finding: Pick<Finding, 'before' | 'request'>): string {
  return [...(finding.before ?? []), finding.request].map((request) => toCurl(request)).join('\n');
}
