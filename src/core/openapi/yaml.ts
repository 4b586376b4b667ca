import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

const require = createRequire(import.meta.url);
let yaml: Yaml | undefined;

/**
 * yaml's parse, loaded on first use: its ~70 modules take ~80 ms to load, which a start that finds
 * its documents in the operations cache (and has no --config) never needs. Under Node, `import
 * 'yaml'` resolves to the same CommonJS build, so this is the very same parser.
 */
export const parseYaml = ((...args: Parameters<Yaml['parse']>) => (yaml ??= require('yaml') as Yaml).parse(...args)) as Yaml['parse'];
