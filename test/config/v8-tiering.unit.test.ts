import { describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, tieringFlag } from '../../src/cli/v8-tiering.js';

describe('the CLI’s V8 tier-up budget', () => {
  it('is four times V8’s default where the user chose none', () => {
    expect(tieringFlag([], undefined)).toBe(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    expect(INTERRUPT_BUDGET).toBe(270_336);
    expect(tieringFlag(['--max-old-space-size=512'], '--enable-source-maps')).toBe('--interrupt-budget=270336');
  });

  it('leaves a budget the user set on node’s command line or in NODE_OPTIONS', () => {
    expect(tieringFlag(['--interrupt-budget=1000'], undefined)).toBeUndefined();
    expect(tieringFlag([], '--enable-source-maps --interrupt_budget=5000')).toBeUndefined();
    expect(tieringFlag([], '--interrupt-budget-for-feedback-allocation=10')).toBe('--interrupt-budget=270336');
  });
});
