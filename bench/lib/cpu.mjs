// @ts-check
// /proc readings (Linux): a process's CPU ticks, RSS and subprocesses, the machine's busy ticks, and waiting for it to go quiet.
import { readFileSync, readdirSync } from 'node:fs';

export const CLK_TCK = 100; // Linux USER_HZ
export const DISTURBED_OTHER_CPU = 25; // % of one core used by the rest of the machine while measuring

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** A process's peak and current RSS in kB (NaN when it is gone). @param {number | undefined} pid */
export function procStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (/** @type {string} */ key) => Number(text.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { vmHWMkB: kb('VmHWM'), vmRSSkB: kb('VmRSS') };
  } catch {
    return { vmHWMkB: NaN, vmRSSkB: NaN };
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from state on. */
function statFields(/** @type {number | 'self' | undefined} */ pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A process's CPU ticks (user + system; NaN when it is gone). @param {number | undefined} pid */
export function cpuTicks(pid) {
  try {
    const fields = statFields(pid);
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return NaN;
  }
}

/** CPU ticks of this process's children that have ended and been waited for (cutime + cstime): a child's whole run, read around it. */
export function endedChildrenTicks() {
  const fields = statFields('self');
  return Number(fields[13]) + Number(fields[14]);
}

/** All CPUs' busy ticks (user nice system irq softirq steal) from /proc/stat. */
export function systemBusyTicks() {
  try {
    const first = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user = NaN, nice = NaN, system = NaN, , , irq = NaN, softirq = NaN, steal] = first.trim().split(/\s+/).slice(1).map(Number);
    return user + nice + system + irq + softirq + (steal || 0);
  } catch {
    return NaN;
  }
}

/**
 * Waits (at most settleSeconds) until a 0.5 s window shows the machine nearly idle; returns ms waited or -1 if it never was.
 * @param {number} settleSeconds
 */
export async function settle(settleSeconds) {
  const t0 = Date.now();
  while (true) {
    const a = systemBusyTicks();
    await sleep(500);
    const busyPercent = ((systemBusyTicks() - a) / CLK_TCK / 0.5) * 100;
    if (!(busyPercent > DISTURBED_OTHER_CPU)) return Math.max(0, Date.now() - t0 - 500);
    if (Date.now() - t0 >= settleSeconds * 1000) return -1;
  }
}

/** CPU ticks of a process and every process below it (a Redis row's wrapper, its redis-server and replicas): the row's own work, not the machine's. */
/** @param {number | undefined} pid @returns {number} */
export function treeCpuTicks(pid) {
  return childPids(pid).reduce((sum, child) => sum + (treeCpuTicks(child) || 0), cpuTicks(pid));
}

/** The pids of a process's children (none when it is gone). @param {number | undefined} pid @returns {number[]} */
export function childPids(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}
