/**
 * `serve --watch`: reload the API document (and the config and seed files) when one of the files
 * changes. Each file's directory is watched, not the file, because editors save by replacing the
 * file (a watch on the old inode would go quiet). Changes are debounced (an editor's save is several
 * events) and reloads run one at a time; a document, config or seed that does not load keeps the
 * last good one served and says why.
 */
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ReloadStatus } from '../control/context.js';
import type { ResourceModel } from '../core/resources/model.js';
import type { Logger } from '../log/logger.js';
import type { TenantItems } from '../store/item-store.js';

export interface DocumentWatcher {
  /** The files watched, absolute, the document first. */
  readonly files: readonly string[];
  /** The last reload's outcome; undefined until a file first changes. */
  status(): ReloadStatus | undefined;
  /** Stops watching; a reload under way finishes, none starts after. */
  close(): Promise<void>;
}

/** How long the file must stay quiet before it is read: an editor's save is several events. */
export const WATCH_DEBOUNCE_MS = 100;

/**
 * Watches `files` (the document first) and calls `reload` after each change settles. `reload` throws
 * to refuse what changed: the message is logged and kept as the status; the caller keeps serving
 * what it had.
 */
export function watchDocument(files: string | readonly string[], reload: () => Promise<void>, logger: Logger, debounceMs = WATCH_DEBOUNCE_MS): DocumentWatcher {
  const paths = [...new Set((typeof files === 'string' ? [files] : files).map((file) => resolve(file)))];
  // One watch per directory, listening for the names of its files (name → the path given). A symlinked
  // file is watched at its target too: an edit there changes nothing in the link's directory.
  const names = new Map<string, Map<string, string>>();
  const listen = (file: string, path: string): void => {
    names.set(dirname(file), (names.get(dirname(file)) ?? new Map<string, string>()).set(basename(file), path));
  };
  for (const path of paths) {
    listen(path, path);
    const target = targetOf(path);
    if (target !== path) listen(target, path);
  }
  // The files changed since the last reload began, for the log.
  const changedPaths = new Set<string>();
  let status: ReloadStatus | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const run = async (): Promise<void> => {
    if (closed) return;
    const changed = [...changedPaths].join(' and ') || paths.join(', ');
    changedPaths.clear();
    try {
      await reload();
      status = { at: new Date().toISOString(), ok: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      status = { at: new Date().toISOString(), ok: false, error: message };
      logger.warn(`watch: ${changed} changed but was not taken; still serving the last good document: ${message}`);
    }
  };
  const schedule = (changed: readonly string[]): void => {
    if (closed) return;
    for (const path of changed) changedPaths.add(path);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // One reload at a time, in the order the changes came.
      running = running.then(run);
    }, debounceMs);
  };

  const watchers: FSWatcher[] = [...names].map(([directory, inside]) => {
    const watcher = watch(directory, (_event, changed) => {
      // Some platforms do not name the file; then any change in the directory may be ours.
      if (changed === null) schedule([...inside.values()]);
      else if (inside.has(changed)) schedule([inside.get(changed) ?? join(directory, changed)]);
    });
    watcher.on('error', (error) => logger.warn(`watch: stopped watching ${directory}: ${error.message}`));
    return watcher;
  });
  logger.info(`watch: reloading when ${paths.length === 1 ? 'it changes' : 'one of them changes'}: ${paths.join(', ')}`);

  return {
    files: paths,
    status: () => status,
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
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

/** Where a symlink leads (resolved now: a link re-pointed later is seen through its own directory); the path itself otherwise. */
function targetOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
