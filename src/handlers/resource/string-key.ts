/**
 * A server-made string identifier that keeps what its schema asks (pattern, minLength, maxLength,
 * format), made from the collection's allocation sequence so replicas sharing a store never make
 * the same one for two sequence numbers:
 *   - the plain text first: the number in decimal (zero-padded up to minLength), or for a format a
 *     value of it around the number (email, uri, hostname, byte); taken when it keeps the rules, so
 *     `^[0-9]+$` or a lone maxLength changes nothing;
 *   - else, where a pattern refuses it (Twilio's `^WS[0-9a-fA-F]{32}$`), a value drawn to match the
 *     pattern, seeded from the number (pattern-draw.ts, which alone loads fast-check, on first use);
 *   - where fast-check cannot read the pattern (a lookahead, `\b`), the plain text all the same: a
 *     stand-in whose creates all fail helps nobody, one whose id breaks its pattern still works;
 *   - else none: the caller refuses the create, as when an integer's bounds are used up.
 */
import { compilePattern, patternRegExp, type PatternTest } from '../../core/regexp/pattern.js';
import { keepsStringRules } from '../../core/schema/string-length.js';
import type { ItemKey, StringRules } from '../../core/resources/model.js';

/** A key, undefined when none keeps the rules; a promise only where a pattern is drawn. */
export type MadeKey = ItemKey | undefined | Promise<ItemKey | undefined>;

interface Compiled {
  readonly rules: StringRules;
  /** The pattern as Ajv reads it (unicode), else without the flag; undefined where none is declared or none reads it. */
  readonly pattern: RegExp | undefined;
  /** The same pattern tested as Ajv tests it (core/regexp/pattern.ts), so a made key passes the answer's check. */
  readonly matches: PatternTest | undefined;
  readonly plain: (sequence: bigint) => string;
}

/** Compiled once per identifier type (the model's object lives as long as its document). */
const compiledRules = new WeakMap<StringRules, Compiled>();

/** The key for `sequence`; `scope` (the parents' path values) varies a drawn one between collections. */
export function stringKey(rules: StringRules, sequence: bigint, scope = ''): MadeKey {
  const compiled = compiledOf(rules);
  const plain = compiled.plain(sequence);
  if (keepsStringRules(plain, rules, compiled.matches)) return plain;
  const { pattern, matches } = compiled;
  if (pattern === undefined || matches === undefined) return undefined;
  return import('./pattern-draw.js').then(({ drawMatching }) => {
    const drawn = drawMatching(pattern, matches, rules, sequence, scope);
    return drawn === 'unreadable' ? plain : drawn;
  });
}

/** What the rules ask, for a refusal's message: `pattern ^[ab]$, maxLength 1`. */
export function rulesText(rules: StringRules): string {
  return (['pattern', 'minLength', 'maxLength', 'format'] as const)
    .filter((name) => rules[name] !== undefined)
    .map((name) => `${name} ${String(rules[name])}`)
    .join(', ');
}

function compiledOf(rules: StringRules): Compiled {
  let compiled = compiledRules.get(rules);
  if (compiled === undefined) {
    const pattern = rules.pattern === undefined ? undefined : patternRegExp(rules.pattern);
    const matches = pattern === undefined ? undefined : compilePattern(pattern.source, pattern.flags);
    compiled = { rules, pattern, matches, plain: plainMaker(rules) };
    compiledRules.set(rules, compiled);
  }
  return compiled;
}

/** Values of a format around the number; a format not here is the decimal (int64 as text, a custom one). */
const BY_FORMAT: Readonly<Record<string, (n: string) => string>> = {
  email: (n) => `item-${n}@example.com`,
  'idn-email': (n) => `item-${n}@example.com`,
  uri: (n) => `https://example.com/items/${n}`,
  url: (n) => `https://example.com/items/${n}`,
  iri: (n) => `https://example.com/items/${n}`,
  'uri-reference': (n) => `/items/${n}`,
  'iri-reference': (n) => `/items/${n}`,
  hostname: (n) => `item-${n}.example.com`,
  'idn-hostname': (n) => `item-${n}.example.com`,
  byte: (n) => Buffer.from(n).toString('base64'),
  // A private range (RFC 1918) and the documentation one (RFC 3849): the item's number in the address's last parts.
  ipv4: (n) => `10.${(BigInt(n) >> 16n) % 256n}.${(BigInt(n) >> 8n) % 256n}.${BigInt(n) % 256n}`,
  ipv6: (n) =>
    `2001:db8::${BigInt(n)
      .toString(16)
      .slice(-16)
      .replace(/(?=(?:[0-9a-f]{4})+$)(?!^)/g, ':')}`,
};

function plainMaker(rules: StringRules): (sequence: bigint) => string {
  const byFormat = rules.format === undefined ? undefined : BY_FORMAT[rules.format];
  if (byFormat !== undefined) return (sequence) => byFormat(sequence.toString());
  const width = rules.minLength ?? 0;
  return (sequence) => sequence.toString().padStart(width, '0');
}
