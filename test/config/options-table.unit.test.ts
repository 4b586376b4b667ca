/** The shared option machinery (src/core/options.ts): one precedence, one whole-number reading, generated help. */
import { describe, expect, it } from 'vitest';
import { parseArgsOptions, parseWhole, readFlags, renderOptionsHelp, resolveOptions, type OptionTable } from '../../src/core/options.js';

const TABLE = {
  port: { type: 'integer', flag: 'port', argument: 'N', env: 'X_PORT', min: 0, max: 10, default: 4, help: 'port (default {default})' },
  names: { type: 'strings', flag: 'name', env: 'X_NAMES', gathered: true, nonEmpty: true, help: 'names;\nrepeat for more' },
  cors: { type: 'boolean', flag: 'no-cors', negated: true, default: true, help: 'no cors' },
  level: { type: 'enum', flag: 'level', values: ['a', 'b', 'c'], help: 'level' },
} as const satisfies OptionTable;

const fail = (message: string): never => {
  throw new Error(message);
};

describe('resolveOptions', () => {
  it('takes the flag, else the variable, else the config file, else the default', () => {
    const sources = { env: { X_PORT: '2' }, config: { port: 3 } };
    expect(resolveOptions(TABLE, { flags: { port: '1' }, ...sources }, { fail }).port).toBe(1);
    expect(resolveOptions(TABLE, { flags: {}, ...sources }, { fail }).port).toBe(2);
    expect(resolveOptions(TABLE, { flags: {}, env: { X_PORT: '' }, config: { port: 3 } }, { fail }).port).toBe(3);
    expect(resolveOptions(TABLE, { flags: {} }, { fail })).toEqual({ port: 4, cors: true });
  });

  it('gathers a list from every source, flags first; a negated flag turns its option off', () => {
    const values = resolveOptions(TABLE, { flags: { name: ['x'], 'no-cors': true }, env: { X_NAMES: ' y, ,z' }, config: { names: ['w'] } }, { fail });
    expect(values).toMatchObject({ names: ['x', 'y', 'z', 'w'], cors: false });
  });

  it('refuses text that does not fit, naming the flag or variable and what it must be', () => {
    expect(() => resolveOptions(TABLE, { flags: { port: '11' } }, { fail })).toThrow('--port must be a whole number from 0 to 10, not "11"');
    expect(() => resolveOptions(TABLE, { flags: {}, env: { X_PORT: '0x1' } }, { fail })).toThrow('X_PORT must be a whole number from 0 to 10, not "0x1"');
    expect(() => resolveOptions(TABLE, { flags: { level: 'd' } }, { verb: 'takes', fail })).toThrow('--level takes one of a, b, c, not "d"');
    expect(() => resolveOptions(TABLE, { flags: { name: [' '] } }, { fail })).toThrow('--name must be a non-empty string');
  });
});

describe('the generated command line', () => {
  it('parseArgs options and help lines come from the table', () => {
    expect(parseArgsOptions(TABLE)).toEqual({
      port: { type: 'string' },
      name: { type: 'string', multiple: true },
      'no-cors': { type: 'boolean' },
      level: { type: 'string' },
    });
    expect(renderOptionsHelp(TABLE, 12)).toBe(
      '  --port N   port (default 4)\n  --name     names;\n             repeat for more\n  --no-cors  no cors\n  --level    level\n',
    );
  });

  it('suggests the nearest flag for a misspelt one', () => {
    expect(() => readFlags(TABLE, ['--prot', '1'])).toThrow("Unknown option '--prot'; did you mean '--port'?");
    expect(() => readFlags(TABLE, ['--frobnicate'])).toThrow("Unknown option '--frobnicate'");
  });

  it('reads whole numbers as decimal digits only', () => {
    expect(parseWhole(' 12 ')).toBe(12);
    expect(parseWhole('-3', -5, 5)).toBe(-3);
    for (const text of ['', '1e3', '0x10', '1.5', '12abc', '99999999999999999999']) expect(parseWhole(text)).toBeUndefined();
  });
});
