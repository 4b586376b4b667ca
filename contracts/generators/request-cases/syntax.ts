/** Syntax families: a body that is not JSON at all (truncated, trailing comma, single quotes, ...). */
import fc from 'fast-check';
import { isJsonObject, toJsonText, type JsonObject, type JsonValue } from '../json-value.js';
import { textFamily, type Base, type Body } from './base.js';
import type { CaseFamily } from './types.js';

let unterminatedStrings: fc.Arbitrary<string> | undefined;
/** Built on first use, once: a stringMatching costs milliseconds to build, and every operation with a JSON body has this family. */
const unterminated = (): fc.Arbitrary<string> => (unterminatedStrings ??= fc.stringMatching(/^[a-z0-9 ]{0,12}$/).map((s) => `{"name":"${s}`));

export function syntaxFamilies(base: Base): CaseFamily[] {
  const body = base.body as Body;
  // Texts built from a valid payload when it is an object (so they look like the real thing), fixed otherwise.
  const fromObject = (breaks: string, build: (text: string, object: JsonObject, n: number) => string, fallback: string): CaseFamily =>
    textFamily(
      base,
      breaks,
      fc.tuple(body.payload, fc.nat()).map(([payload, n]) => (isJsonObject(payload) ? build(toJsonText(payload), payload, n) : fallback)),
    );
  return [
    // Every proper prefix of an object's text is unfinished JSON.
    fromObject('body: malformed JSON (truncated)', (text, _o, n) => text.slice(0, 1 + (n % (text.length - 1))), '{"name": "tr'),
    fromObject('body: malformed JSON (trailing comma)', (text) => `${text.slice(0, -1)},}`, '{"name":"x",}'),
    fromObject(
      'body: malformed JSON (single quotes)',
      (_text, object) => {
        const keys = Object.keys(object);
        if (keys.length === 0) return "{'name':'x'}";
        return `{${keys.map((k) => `'${k.replace(/['\\]/g, '')}':${toJsonText(object[k] as JsonValue).replace(/^"(.*)"$/s, "'$1'")}`).join(',')}}`;
      },
      "{'name':'x'}",
    ),
    textFamily(base, 'body: malformed JSON (bare word)', fc.constantFrom('plant', 'undefined', 'NaN', 'Infinity', 'True', 'nul', '{name: "x"}')),
    textFamily(base, 'body: malformed JSON (unterminated string)', unterminated()),
    fromObject('body: malformed JSON (text after the value)', (text) => `${text}}`, '{"name":"x"}}'),
    // An empty body is no body: invalid only where the body is required.
    ...(body.required ? [textFamily(base, 'body: empty', fc.constant(''))] : []),
  ];
}
