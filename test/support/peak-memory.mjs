// Loaded with `node --import` into a process under test: at its exit (however it exits), writes its
// peak resident set size (VmHWM from /proc/self/status, in KiB) to the file named by PEAK_MEMORY_FILE.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.PEAK_MEMORY_FILE;
if (file) {
  process.on('exit', () => {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    writeFileSync(file, match?.[1] ?? '');
  });
}
