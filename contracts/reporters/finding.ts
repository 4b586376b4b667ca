/** A finding in words, the same in every report: its message and the curl commands that replay its requests. */
import { shellQuote, toCurl } from '../client/curl.js';
import { createdItems, placeholder, withPlaceholders } from './created-items.js';
import type { Finding } from '../report.js';

/** Said before a flaky finding's message in every report. */
export const FLAKY = 'flaky: did not reproduce alone';

/** The check's message, marked when it was flaky or --strict made a warning fail, with how many requests showed the problem. */
export function findingMessage(finding: Pick<Finding, 'message' | 'outcome' | 'severity' | 'count' | 'reproduced'>): string {
  const flaky = finding.reproduced === false ? `(${FLAKY}${finding.severity === 'failure' ? ', failed by --strict' : ''}) ` : '';
  const strict = flaky === '' && finding.outcome === 'warn' && finding.severity === 'failure' ? '(a warning, failed by --strict) ' : '';
  const times = finding.count > 1 ? ` [${finding.count} cases like this]` : '';
  return `${flaky}${strict}${finding.message}${times}`;
}

/**
 * Ready curl commands, one a line: the steps before the request, then the request. The items the
 * steps create are shell variables ($ID1…) in the later steps: an id the client sent is set to the
 * run's at the top (to be set fresh: the target holds it now), an id the server assigned is read
 * from the create's answer by that step itself, so the lines replay on a target that holds other items.
 * The run's `target` is left as it is (a base path segment may equal an id).
 */
export function findingCurl(finding: Pick<Finding, 'before' | 'request'>, target?: string): string {
  const sent = [...(finding.before ?? []), finding.request];
  const items = createdItems(sent);
  const variables = new Map(items.map((item) => [placeholder(item), item.name]));
  // A server's id is read from its create's answer where a later step names it.
  const assigned = items.filter((item) => item.assignedBy === 'server' && item.at < sent.length - 1);
  const lines = withPlaceholders(sent, items, target).map((request, at) => {
    const read = assigned.find((item) => item.at === at);
    return read === undefined
      ? toCurl(request, { variables })
      : `${read.name}=$(${toCurl(request, { variables, bodyOnly: true })} | ${readJsonValue(read.property)})`;
  });
  const chosen = items.filter((item) => item.assignedBy === 'client');
  const header = [
    ...(chosen.length === 0
      ? []
      : [
          `# the target holds these ids since this run; set fresh ones to run the steps again (a repeated create is refused)`,
          chosen.map((item) => `${item.name}=${shellWord(item.id)}`).join(' '),
        ]),
    ...(assigned.length === 0
      ? []
      : [`# ${assigned.map((item) => item.name).join(', ')}: the id the server assigns, read from the create's answer (exact digits, no jq needed)`]),
  ];
  return [...header, ...lines].join('\n');
}

/**
 * A shell pipeline that prints the first `property` of the JSON it reads, a number's digits as
 * written or a string's text (its escapes not undone), the way the regression runtime's valueIn
 * reads it. Not jq: jq 1.6 reads numbers as doubles and would print 9007199254740993 as …992.
 */
export function readJsonValue(property: string): string {
  const key = JSON.stringify(property).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pair = (name: string): string => `${name}[[:space:]]*:[[:space:]]*`;
  const inSed = pair(key.replace(/\//g, '\\/'));
  return `grep -Eo ${shellQuote(`${pair(key)}(-?[0-9]+|"[^"]*")`)} | head -n 1 | sed -E ${shellQuote(`s/^${inSed}//; s/^"(.*)"$/\\1/`)}`;
}

/** An id as one shell word: digits bare, anything else quoted. */
function shellWord(id: string): string {
  return /^[\w.-]+$/.test(id) ? id : shellQuote(id);
}
