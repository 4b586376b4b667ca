/**
 * Which keywords of a schema its author wrote. prism-http writes int32's and int64's bounds into the
 * schemas it hands over and lists, in `x-stoplight.explicitProperties`, the keywords the author wrote:
 * a bound not listed there is prism's. A schema without that list is the author's as it stands.
 */
type Annotated = { readonly 'x-stoplight'?: unknown };

/** The keywords the author wrote, where prism lists them; undefined where nothing does. */
export function authorKeywords(schema: Annotated): ReadonlySet<string> | undefined {
  const stoplight = schema['x-stoplight'];
  const listed = typeof stoplight === 'object' && stoplight !== null ? (stoplight as { readonly explicitProperties?: unknown }).explicitProperties : undefined;
  return Array.isArray(listed) ? new Set(listed.filter((name): name is string => typeof name === 'string')) : undefined;
}

/** Whether the author wrote `keyword` (true where no list says otherwise). */
export function saidByAuthor(schema: Annotated, keyword: string): boolean {
  return authorKeywords(schema)?.has(keyword) ?? true;
}
