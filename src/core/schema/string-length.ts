/**
 * A string's length as JSON Schema counts it (and Ajv: ucs2length), in code points: "😀" is one.
 * serve's made identifiers and verify's drawn ones are held to minLength/maxLength by it.
 */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Whether `text` keeps a string's length bounds and its pattern (tested as Ajv tests it: core/regexp/pattern.ts). */
export function keepsStringRules(
  text: string,
  rules: { readonly minLength?: number | undefined; readonly maxLength?: number | undefined },
  pattern: { test(text: string): boolean } | undefined,
): boolean {
  const length = codePointLength(text);
  if (rules.minLength !== undefined && length < rules.minLength) return false;
  if (rules.maxLength !== undefined && length > rules.maxLength) return false;
  return pattern === undefined || pattern.test(text);
}
