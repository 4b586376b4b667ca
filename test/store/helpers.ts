import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openJournalFile, type JournalFile } from '../../src/store/plant-log.js';

/** A fresh directory under the OS temp dir, removed after the test. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plant-log-'));
    made.push(dir);
    return dir;
  };
}

/** The real journal, with every append and sync counted; syncs fail or wait while told to. */
export interface InstrumentedFile {
  readonly counts: { appends: number; syncs: number };
  failSyncs: boolean;
  /** While set, each sync waits for it; `syncStarted` resolves as one begins. */
  gate: Promise<void> | undefined;
  syncStarted: Promise<void>;
  readonly openFile: (path: string) => Promise<JournalFile>;
}

export function instrumentedFile(): InstrumentedFile {
  let announce = (): void => undefined;
  const instrumented: InstrumentedFile = {
    counts: { appends: 0, syncs: 0 },
    failSyncs: false,
    gate: undefined,
    syncStarted: Promise.resolve(),
    openFile: async (path) => {
      const real = await openJournalFile(path);
      return {
        ...real,
        async append(data) {
          instrumented.counts.appends += 1;
          await real.append(data);
        },
        async sync() {
          instrumented.counts.syncs += 1;
          announce();
          if (instrumented.gate) await instrumented.gate;
          if (instrumented.failSyncs) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          await real.sync();
        },
      };
    },
  };
  instrumented.syncStarted = new Promise((resolve) => (announce = resolve));
  return instrumented;
}
