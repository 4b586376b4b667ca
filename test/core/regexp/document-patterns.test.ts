/**
 * Every `pattern` (and `patternProperties` key) of every document the project keeps, from the
 * Plant Store to Twilio's, Eclipse Ditto's and the fixtures, and of five more public APIs: the linear engine answers as
 * JavaScript's RegExp does on strings drawn to match each one, on those strings mutated by one
 * character (line terminators, Unicode spaces, an astral and a lone surrogate among them) and on
 * random strings. A translation rule that reads some document's pattern otherwise fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compilePattern, isLinear } from '../../../src/core/regexp/pattern.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FOLDERS = ['spec', 'test/fixtures', 'test/resources/documents', 'bench/documents'];

function documents(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) return documents(file);
    return /\.(ya?ml|json)$/.test(name) && !name.endsWith('.resources.json') ? [file] : [];
  });
}

function patternsIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) patternsIn(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'pattern' && typeof inner === 'string') into.add(inner);
      if (key === 'patternProperties' && typeof inner === 'object' && inner !== null) for (const name of Object.keys(inner)) into.add(name);
      patternsIn(inner, into);
    }
  }
}

const patterns = new Set<string>();
for (const folder of FOLDERS) {
  for (const file of documents(path.join(ROOT, folder))) {
    try {
      patternsIn(parse(readFileSync(file, 'utf8')) as unknown, patterns);
    } catch {
      // Not a document (a fixture of broken YAML): it has no pattern to hold.
    }
  }
}
// And those of the public documents kept only as patterns (test/fixtures/patterns/README.md).
const kept = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/patterns/public-patterns.json'), 'utf8')) as { sources: { patterns: string[] }[] };
for (const source of kept.sources) for (const pattern of source.patterns) patterns.add(pattern);
const compiled = [...patterns].flatMap((pattern) => {
  try {
    return [{ pattern, native: new RegExp(pattern, 'u') }];
  } catch {
    return []; // JavaScript refuses it: so does compilePattern (re2-syntax.unit.test.ts).
  }
});

const ODD = ['\n', '\r', '\u2028', '\u00a0', '\u3000', ' ', '\t', '😀', '\ud800', 'é', 'a', 'Z', '0', '9', '-', '.', ':', '/', '_', '@', '{', '%'];

/** Strings drawn to match, each mutated by one character, and random ones: deterministic (a fixed seed per pattern). */
function textsFor(native: RegExp, seed: number): string[] {
  let matching: string[] = [];
  try {
    matching = fc.sample(fc.stringMatching(native, { size: 'small' }), { seed, numRuns: 15 });
  } catch {
    // fast-check draws no string for some patterns (\b): the mutated and random ones remain.
  }
  const mutated = fc
    .sample(
      fc.tuple(fc.constantFrom(...(matching.length > 0 ? matching : [''])), fc.nat(), fc.constantFrom(...ODD), fc.constantFrom('insert', 'replace', 'delete')),
      { seed: seed + 1, numRuns: 30 },
    )
    .map(([text, at, char, how]) => {
      const index = text.length === 0 ? 0 : at % text.length;
      if (how === 'delete') return text.slice(0, index) + text.slice(index + 1);
      return text.slice(0, index) + char + text.slice(how === 'replace' ? index + 1 : index);
    });
  const random = fc.sample(fc.string({ unit: fc.constantFrom(...ODD), maxLength: 12 }), { seed: seed + 2, numRuns: 15 });
  return [...matching, ...mutated, ...random];
}

describe("the documents' own patterns", () => {
  it('were found (the corpus is not empty)', () => {
    expect(compiled.length).toBeGreaterThan(250);
  });

  it('run in linear time, all but those RE2 cannot run', () => {
    const left = compiled.filter(({ pattern }) => !isLinear(pattern)).map(({ pattern }) => pattern);
    // Each of these needs lookaround or a backreference; a new one here is a rule to write.
    expect(left.filter((pattern) => !/\(\?[=!<]|\\[1-9]|\\k</.test(pattern))).toEqual([]);
  });

  it('answer as RegExp does on drawn, mutated and random strings', () => {
    const differences: string[] = [];
    compiled.forEach(({ pattern, native }, index) => {
      const linear = compilePattern(pattern);
      for (const text of textsFor(native, 1_000 + index * 3)) {
        if (linear.test(text) !== native.test(text)) differences.push(`${pattern} on ${JSON.stringify(text)}: RegExp ${native.test(text)}`);
      }
    });
    expect(differences).toEqual([]);
  });
});
