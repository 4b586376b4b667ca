/** Repeated warnings (dropped webhooks, dropped journal readers) are reported at once, then at most once per interval, with their count. */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { throttledCount } from '../../src/log/throttle.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('reports the first event at once, the rest of the interval as one count, and nothing when quiet', () => {
  const reports: number[] = [];
  const count = throttledCount((n) => reports.push(n), 10_000);
  count.add();
  expect(reports).toEqual([1]);
  for (let i = 0; i < 500; i += 1) count.add();
  expect(reports).toEqual([1]);
  vi.advanceTimersByTime(10_000);
  expect(reports).toEqual([1, 500]);
  // A quiet interval reports nothing and ends the throttle: the next event is reported at once.
  vi.advanceTimersByTime(10_000);
  expect(reports).toEqual([1, 500]);
  count.add();
  expect(reports).toEqual([1, 500, 1]);
});
