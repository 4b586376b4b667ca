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
  const lines = [...(finding.before ?? []), finding.request].map((request) => toCurl(request));
  const ids = createdIds(finding.before ?? []);
  if (ids.length === 0) return lines.join('\n');
  // The steps create items with these ids, which the target holds after the run: as variables, they can be set to fresh ones to run the steps again.
  const names = ids.map((_, i) => `ID${i + 1}`);
  const header = `# the target holds these ids since this run; set fresh ones to run the steps again (a repeated create is refused)`;
  const assignments = ids.map((id, i) => `${names[i]}=${id}`).join(' ');
  const withVariables = lines.map((line) => ids.reduce((text, id, i) => text.replace(idPattern(id), `'"$${names[i]}"'`), line));
  return [header, assignments, ...withVariables].join('\n');
}

/** The ids the lifecycle steps created ("step 1: create plants with id 123"), each once, in order. */
function createdIds(before: readonly Finding['request'][]): string[] {
  const ids = before.flatMap((request) => /^step \d+: create \S+ with id (-?\d+)/.exec(request.label)?.[1] ?? []);
  return [...new Set(ids)];
}

/** The id as a whole number in a command line (not the middle of a longer one). */
function idPattern(id: string): RegExp {
  return new RegExp(`(?<![\\d-])${id.replace('-', '\\-')}(?!\\d)`, 'g');
}
