// The load hook of loaded-modules.mjs (it runs on the hooks' own thread): each ES module's URL, one a line.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}
export async function load(url, context, next) {
  appendFileSync(file, `${url}\n`);
  return next(url, context);
}
