// Loaded with `node --import` into a process under test: appends the URL or path of every module it
// loads (ES modules through a load hook, CommonJS through the loader) to the file named by
// LOADED_MODULES_FILE, one a line, so a test can say what a command did not need to read.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const file = process.env.LOADED_MODULES_FILE;
if (file) {
  register(new URL('./loaded-modules-hook.mjs', import.meta.url), { data: { file } });
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const loaded = load.call(this, request, parent, isMain);
    try {
      appendFileSync(file, `${Module._resolveFilename(request, parent)}\n`);
    } catch {
      // a built-in module or one resolved another way: nothing of ours
    }
    return loaded;
  };
}
