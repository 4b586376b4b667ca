/**
 * A document's `pattern` run in time linear in the text: the one place serve and verify test a
 * string against one (Ajv's `pattern` and `patternProperties` through its `code.regExp` option,
 * and the slugs a server makes).
 *
 * JavaScript's RegExp backtracks: Eclipse Ditto's `([_a-zA-Z0-9\-.]+):…` held serve for 7 s on one
 * 50,000-character value, and a client chooses the value. re2js (a JavaScript port of RE2, MIT, no
 * dependencies) matches in one pass over the text; the pattern is first written in RE2's syntax
 * with JavaScript's meaning (core/regexp/re2-syntax.ts). What RE2 cannot run (lookaround,
 * backreferences, a repeat count above 1,000) keeps JavaScript's engine, as before.
 *
 * The pattern is still compiled by RegExp first, so a pattern JavaScript refuses is refused as
 * before. re2js is loaded, and the pattern compiled for it, at the first test, not at start-up.
 */
import { createRequire } from 'node:module';
import { re2Syntax } from './re2-syntax.js';

/** What Ajv asks of a regular expression engine's result (its RegExpLike), and its key. */
export interface PatternTest {
  test(text: string): boolean;
  toString(): string;
}

interface Linear {
  test(text: string): boolean;
}
type Re2Module = { RE2JS: { compile(pattern: string): Linear } };

const require = createRequire(import.meta.url);
let re2: Re2Module | undefined;

/** The compiled pattern for RE2, or undefined where RE2 cannot run this one. */
function linearOf(pattern: string): Linear | undefined {
  const syntax = re2Syntax(pattern);
  if (syntax === undefined) return undefined;
  try {
    return (re2 ??= require('re2js') as Re2Module).RE2JS.compile(syntax);
  } catch {
    return undefined;
  }
}

/**
 * `pattern` with `flags` as Ajv compiles it. A pattern the u flag refuses but ECMA-262 reads without
 * it (DigitalOcean's tag name "^[a-zA-Z0-9_\\-\\:]+$": an identity escape) means what it says
 * there, as Ajv's unicodeRegExp: false reads it, on JavaScript's engine; throws where both refuse it.
 */
export function compilePattern(pattern: string, flags = 'u'): PatternTest {
  let native: RegExp;
  try {
    native = new RegExp(pattern, flags);
  } catch (error) {
    if (flags !== 'u') throw error;
    return new RegExp(pattern);
  }
  // Only the u flag's reading is translated; Ajv and the slug check always set it.
  if (flags !== 'u') return native;
  let engine: Linear | undefined;
  return {
    test(text) {
      engine ??= linearOf(pattern) ?? native;
      return engine.test(text);
    },
    toString: () => native.toString(),
  };
}

/**
 * `pattern` as a RegExp to draw strings from (fast-check's stringMatching): with the u flag, as Ajv
 * reads it, else without it where only that reads it; undefined where neither does.
 */
export function patternRegExp(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // the next flags
    }
  }
  return undefined;
}

/** Whether RE2 runs `pattern` (true) or it stays with JavaScript's backtracking engine. */
export function isLinear(pattern: string): boolean {
  return linearOf(pattern) !== undefined;
}

/** The module standalone validator code requires the engine from, and the expression it calls. */
export const PATTERN_MODULE = 'plantstore:pattern';
/** Ajv's RegExpEngine: the function, and the code standalone validators call it by. */
export const patternEngine = Object.assign((pattern: string, flags: string) => compilePattern(pattern, flags), {
  code: `require("${PATTERN_MODULE}").compilePattern`,
});

/**
 * The engine of a validator written out to run on its own (an `--emit-regressions` file):
 * JavaScript's RegExp, which reads a pattern as the linear engine does (re2-syntax.ts) and there
 * replays one recorded answer, so re2js is not carried along.
 */
export const STANDALONE_PATTERN_SOURCE = `module.exports = { compilePattern: (pattern, flags) => new RegExp(pattern, flags) };\n`;
