/**
 * Counts repeated events and reports them at most once per interval: the first at once, then
 * the number since, when the interval ends. A receiver or a client that keeps failing gets one
 * warning every few seconds that says how many, not one line per event (a log flood of its own).
 */
export interface ThrottledCount {
  /** One more event. */
  add(): void;
}

export function throttledCount(report: (count: number) => void, intervalMs: number): ThrottledCount {
  let count = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    timer = undefined;
    if (count === 0) return;
    report(count);
    count = 0;
    arm();
  };
  const arm = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  return {
    add() {
      count += 1;
      if (timer === undefined) tick();
    },
  };
}
