/**
 * When V8 compiles a hot function with its optimizing compiler (TurboFan): by default after about
 * 66 KB of the function's bytecode has run (--interrupt-budget=67584), a setting made for pages that
 * live for minutes. A `verify` run at its defaults lasts three seconds: TurboFan spent 1.3 s of its
 * 3.6 s of CPU compiling code that ran only a few more times before the run ended. Four times the
 * budget optimizes only what stays hot, and verify at its defaults judged more cases a second
 * (docs/performance.md, "Issue 21, fourth pass").
 *
 * `serve` keeps V8's default: a stand-in lives long, and with four times the budget POST /plants at
 * 32 connections fell from 0.71–0.82 to 0.65–0.70 of the floor (alternating runs). Only the CLI sets
 * it: a program that imports plantstore keeps its own V8 settings.
 */
import { setFlagsFromString } from 'node:v8';

/** Four times V8's default (67,584 bytes of bytecode run before a function is considered for optimization). */
export const INTERRUPT_BUDGET = 4 * 67_584;

/** The V8 flag to set, or undefined where the user chose a budget (node's own flags or NODE_OPTIONS win). */
export function tieringFlag(execArgv: readonly string[], nodeOptions: string | undefined): string | undefined {
  const chosen = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((flag) => /^--interrupt[-_]budget(=|$)/.test(flag));
  return chosen ? undefined : `--interrupt-budget=${INTERRUPT_BUDGET}`;
}

/** Sets the budget for this process, before the command's code has run enough to be optimized. */
export function tuneTiering(): void {
  const flag = tieringFlag(process.execArgv, process.env.NODE_OPTIONS);
  if (flag !== undefined) setFlagsFromString(flag);
}
