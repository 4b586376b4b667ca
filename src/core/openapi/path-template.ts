/**
 * A path template (`/repos/{owner}/{repo}/pulls/{index}.diff`) as a pattern: its literal text as
 * written, each `{name}` one non-empty run without "/". One reading for the routes serve matches and
 * for the parameters it reads out of a segment (a parameter need not fill its segment).
 */

/** The names of the template's parameters, in order. */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/** A whole-text pattern for `template`, one capture per parameter, in order. */
export function templatePattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map(escapeRegExp)
    .join('([^/]+)');
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
