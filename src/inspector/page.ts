/**
 * The inspector page at /__inspector: a few static files (HTML, CSS, ES modules) shipped in the
 * package and read once at start. The page holds no data and no secret: everything it shows it asks
 * the control API for, with the admin token the user types, so serving it needs no token.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { findUpward } from '../core/package.js';

export const INSPECTOR_PREFIX = '/__inspector';
/** Where the page's files are, from src/ (tests) and from dist/ (found upward, as spec/ is). */
export const PAGE_FOLDER = join('src', 'inspector', 'page');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

/**
 * Only our own files, scripts and styles, and requests back to this origin: an entry's body is shown
 * as text, but should one ever reach the DOM as markup, it cannot load or send anything.
 */
const HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

export interface PageFile {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export interface InspectorPage {
  /** The file a GET of `path` answers with; undefined when `path` is not the inspector's. */
  answer(method: string, path: string): PageFile | undefined;
}

/** Reads the page's files once; a file added later is not served (the set is fixed at start). */
export function loadInspectorPage(folder: string = pageFolder()): InspectorPage {
  const files = new Map<string, PageFile>();
  for (const name of readdirSync(folder)) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    files.set(`${INSPECTOR_PREFIX}/${name}`, { status: 200, headers: { ...HEADERS, 'content-type': type }, body: readFileSync(join(folder, name)) });
  }
  const index = files.get(`${INSPECTOR_PREFIX}/index.html`);
  if (index === undefined) throw new Error(`the inspector page is incomplete: ${join(folder, 'index.html')} is missing`);
  files.set(INSPECTOR_PREFIX, index);
  files.set(`${INSPECTOR_PREFIX}/`, index);
  return {
    answer(method, path) {
      if (path !== INSPECTOR_PREFIX && !path.startsWith(`${INSPECTOR_PREFIX}/`)) return undefined;
      if (method !== 'GET' && method !== 'HEAD') return text(405, `the inspector page answers GET only, not ${method}`, { allow: 'GET, HEAD' });
      return files.get(path) ?? text(404, `the inspector has no file ${path}; open ${INSPECTOR_PREFIX}`);
    },
  };
}

/**
 * The page read at its first request rather than at start (a start that answers only API requests
 * never needs its files). A page missing from the package is answered 500, with what to do.
 */
export function lazyInspectorPage(load: () => InspectorPage = () => loadInspectorPage()): InspectorPage {
  let page: InspectorPage | undefined;
  return {
    answer(method, path) {
      if (path !== INSPECTOR_PREFIX && !path.startsWith(`${INSPECTOR_PREFIX}/`)) return undefined;
      try {
        page ??= load();
      } catch (error) {
        return text(500, error instanceof Error ? error.message : String(error));
      }
      return page.answer(method, path);
    },
  };
}

function text(status: number, message: string, extra: Readonly<Record<string, string>> = {}): PageFile {
  return { status, headers: { ...HEADERS, ...extra, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(message) };
}

function pageFolder(): string {
  const found = findUpward(join(PAGE_FOLDER, 'index.html'));
  if (found === undefined) throw new Error(`the inspector page (${PAGE_FOLDER}) is missing from the plantstore package; reinstall it`);
  return join(found, '..');
}

/** The request handler with the inspector page in front: its paths answered here, the rest passed on. */
export function withInspector(
  page: InspectorPage,
  next: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const file = page.answer(request.method ?? 'GET', query === -1 ? url : url.slice(0, query));
    if (file === undefined) return next(request, response);
    response.writeHead(file.status, { ...file.headers, 'content-length': String(file.body.length) });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  };
}
