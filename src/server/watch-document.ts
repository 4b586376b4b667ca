/**
 * `serve --watch`: reload the API document when its file changes. The directory is watched, not the
 * file, because editors save by replacing the file (a watch on the old inode would go quiet). Changes
 * are debounced (an editor's save is several events) and reloads run one at a time; a document that
 * does not load keeps the last good one served and says why.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ReloadStatus } from '../control/context.js';
import type { ResourceModel } from '../core/resources/model.js';
import type { Logger } from '../log/logger.js';
import type { TenantItems } from '../store/item-store.js';

export interface DocumentWatcher {
  /** The last reload's outcome; undefined until the file first changes. */
  status(): ReloadStatus | undefined;
  /** Stops watching; a reload under way finishes, none starts after. */
  close(): Promise<void>;
}

/** How long the file must stay quiet before it is read: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 100;

/**
 * Watches `file` and calls `reload` after each change settles. `reload` throws to refuse the new
 * document: the message is logged and kept as the status; the caller keeps serving what it had.
 */
export function watchDocument(file: string, reload: () => Promise<void>, logger: Logger, debounceMs = WATCH_DEBOUNCE_MS): DocumentWatcher {
  const path = resolve(file);
  const name = basename(path);
  let status: ReloadStatus | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const run = async (): Promise<void> => {
    if (closed) return;
    try {
      await reload();
      status = { at: new Date().toISOString(), ok: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status = { at: new Date().toISOString(), ok: false, error: message };
      logger.warn(`watch: ${path} changed but was not taken; still serving the last good document: ${message}`);
    }
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // One reload at a time, in the order the changes came.
      running = running.then(run);
    }, debounceMs);
  };

  const watcher: FSWatcher = watch(dirname(path), (_event, changed) => {
    // Some platforms do not name the file; then any change in the directory may be ours.
    if (changed === null || changed === name) schedule();
  });
  watcher.on('error', (error) => logger.warn(`watch: stopped watching ${path}: ${error.message}`));
  logger.info(`watch: reloading ${path} when it changes`);

  return {
    status: () => status,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher.close();
      await running;
    },
  };
}

/**
 * What a reload did to the resources, for the log: those kept (with the shared tenant's items,
 * which stay stored), those that appeared, and those that disappeared (their items stay stored,
 * unserved, and come back if the resource does).
 */
export async function describeReload(file: string, before: ResourceModel, after: ResourceModel, shared: TenantItems): Promise<string> {
  const names = (model: ResourceModel) => new Set(model.resources.map((resource) => resource.name));
  const [was, is] = [names(before), names(after)];
  const held = shared.collections();
  const kept: string[] = [];
  for (const name of is) {
    if (!was.has(name)) continue;
    let items = 0;
    for (const key of held) if (key === name || key.startsWith(`${name}/`)) items += await shared.collection(key).count();
    kept.push(`${name} (${items} item${items === 1 ? '' : 's'})`);
  }
  const appeared = [...is].filter((name) => !was.has(name));
  const gone = [...was].filter((name) => !is.has(name));
  const list = (values: readonly string[]) => (values.length === 0 ? 'none' : values.join(', '));
  return `reloaded ${resolve(file)}: kept ${list(kept)}; appeared ${list(appeared)}; disappeared ${list(gone)}`;
}
