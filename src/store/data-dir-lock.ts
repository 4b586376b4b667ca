import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still ours. */
  release(): Promise<void>;
}

interface Holder {
  readonly pid: number;
  /** Linux boot id when the lock was taken: a pid from before a reboot is no one's. */
  readonly bootId: string;
}

const LOCK_FILE = '.lock';
const ATTEMPTS = 5;

/**
 * Makes this process the only writer of `dir`: the lock file holds our pid. A lock whose pid is
 * alive is refused with that pid; a lock left by a dead process (or one from before a reboot) is
 * taken over. The lock appears whole or not at all (written aside, then hard-linked into place), so
 * a half-written lock is never mistaken for a stale one. Two servers taking over the same stale
 * lock at the same instant can still race; Node has no flock, and that window is accepted.
 */
export async function lockDataDir(dir: string): Promise<DataDirLock> {
  const path = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, bootId: await bootId() };
  const aside = join(dir, `${LOCK_FILE}.${process.pid}.${randomBytes(4).toString('hex')}`);
  await writeFile(aside, `${me.pid}\n${me.bootId}\n`, { flag: 'wx' }).catch((error: unknown) => {
    throw new Error(`cannot write the lock file ${aside}: ${describe(error)}`, { cause: error });
  });
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      if (await place(aside, path)) return { path, release: () => release(path, me) };
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (holder !== 'unreadable' && isAlive(holder, me)) {
        throw new Error(
          `data dir ${dir} is in use by pid ${holder.pid}${holder.pid === me.pid ? ' (this process)' : ''}: lock file ${path}. ` +
            'Stop that server or pick another --data-dir; if that pid is not a plantstore, delete the lock file.',
        );
      }
      // Dead holder, or content no complete lock could have: take it over.
      await unlink(path).catch(ignoreMissing);
    }
    throw new Error(`cannot take the lock file ${path}: it kept changing hands after ${ATTEMPTS} attempts`);
  } finally {
    await unlink(aside).catch(ignoreMissing);
  }
}

/** Links the prepared lock into place; false if a lock is already there. */
async function place(aside: string, path: string): Promise<boolean> {
  try {
    await link(aside, path);
    return true;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') return placeWithoutLinks(aside, path);
    throw new Error(`cannot create the lock file ${path}: ${describe(error)}`, { cause: error });
  }
}

/** For file systems without hard links: exclusive create, with a short window where it is empty. */
async function placeWithoutLinks(aside: string, path: string): Promise<boolean> {
  try {
    await writeFile(path, await readFile(aside), { flag: 'wx' });
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw new Error(`cannot create the lock file ${path}: ${describe(error)}`, { cause: error });
  }
}

async function readHolder(path: string): Promise<Holder | 'gone' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 'gone';
    throw new Error(`cannot read the lock file ${path}: ${describe(error)}`, { cause: error });
  }
  const [pidLine = '', bootLine = ''] = text.split('\n');
  const pid = /^[1-9][0-9]*$/.test(pidLine) ? Number(pidLine) : NaN;
  return Number.isSafeInteger(pid) ? { pid, bootId: bootLine } : 'unreadable';
}

function isAlive(holder: Holder, me: Holder): boolean {
  if (holder.bootId !== '' && me.bootId !== '' && holder.bootId !== me.bootId) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return codeOf(error) === 'EPERM';
  }
}

async function release(path: string, me: Holder): Promise<void> {
  const holder = await readHolder(path);
  if (holder === 'gone' || holder === 'unreadable' || holder.pid !== me.pid) return;
  await unlink(path).catch(ignoreMissing);
}

async function bootId(): Promise<string> {
  try {
    return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  } catch {
    return '';
  }
}

function ignoreMissing(error: unknown): void {
  if (codeOf(error) !== 'ENOENT') throw error;
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
