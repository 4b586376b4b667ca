/** `plantstore serve` arguments → server options; every mistake names the flag at fault. */
import { describe, expect, it } from 'vitest';
import { parseServeArguments } from '../../src/cli/serve.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { DEFAULTS } from '../../src/index.js';

const NO_ENV = {};

describe('parseServeArguments', () => {
  it('gives the documented defaults for no arguments', () => {
    expect(parseServeArguments([], NO_ENV)).toMatchObject({
      port: DEFAULTS.port,
      host: DEFAULTS.host,
      tokens: [],
      echoId: false,
      cors: true,
      bodyLimitBytes: DEFAULTS.bodyLimitBytes,
      requestTimeoutMs: DEFAULTS.requestTimeoutMs,
      logLevel: 'info',
    });
    const options = parseServeArguments([], NO_ENV);
    expect(options).not.toHaveProperty('spec');
    expect(options).not.toHaveProperty('authStatus');
  });

  it('reads every option', () => {
    const options = parseServeArguments(
      [
        '--spec',
        'x.yaml',
        '--port',
        '0',
        '--host',
        '::1',
        '--token',
        'a',
        '--token',
        'b',
        '--auth-status',
        '401',
        '--echo-id',
        '--no-cors',
        '--body-limit',
        '2048',
        '--request-timeout-ms',
        '500',
        '--log-level',
        'debug',
      ],
      NO_ENV,
    );
    expect(options).toMatchObject({
      spec: 'x.yaml',
      port: 0,
      host: '::1',
      tokens: ['a', 'b'],
      authStatus: 401,
      echoId: true,
      cors: false,
      bodyLimitBytes: 2048,
      requestTimeoutMs: 500,
      logLevel: 'debug',
    });
  });

  it('reads --max-tenants (default 1000), from the flag or the config file, and refuses 0', () => {
    expect(parseServeArguments([], NO_ENV)).toMatchObject({ maxTenants: DEFAULTS.maxTenants });
    expect(DEFAULTS.maxTenants).toBe(1_000);
    expect(parseServeArguments(['--max-tenants', '2'], NO_ENV, { maxTenants: 50 })).toMatchObject({ maxTenants: 2 });
    expect(parseServeArguments([], NO_ENV, { maxTenants: 50 })).toMatchObject({ maxTenants: 50 });
    expect(() => parseServeArguments(['--max-tenants', '0'], NO_ENV)).toThrow(
      new UsageError('--max-tenants must be a whole number from 1 to 10000000, not "0"'),
    );
  });

  it('adds the tokens of PLANTSTORE_TOKENS (comma-separated, trimmed, blanks dropped)', () => {
    expect(parseServeArguments(['--token', 'a'], { PLANTSTORE_TOKENS: ' c, d ,,' })).toMatchObject({ tokens: ['a', 'c', 'd'] });
  });

  it('answers --help and -h with "help"', () => {
    expect(parseServeArguments(['--help'], NO_ENV)).toBe('help');
    expect(parseServeArguments(['-h'], NO_ENV)).toBe('help');
  });

  it.each([
    [['--port', 'abc'], '--port'],
    [['--port', '70000'], '--port'],
    [['--port=-1'], '--port'],
    [['--port', '1.5'], '--port'],
    [['--auth-status', '402'], '--auth-status'],
    [['--log-level', 'loud'], '--log-level'],
    [['--token', ''], '--token'],
    [['--token', '   '], '--token'],
    [['--body-limit', '0'], '--body-limit'],
    [['--request-timeout-ms', '10'], '--request-timeout-ms'],
  ])('refuses %j with a UsageError naming %s', (argv, flag) => {
    expect(() => parseServeArguments(argv, NO_ENV)).toThrow(UsageError);
    expect(() => parseServeArguments(argv, NO_ENV)).toThrow(flag);
  });

  it('refuses an unknown flag, naming it', () => {
    expect(() => parseServeArguments(['--frobnicate'], NO_ENV)).toThrow('--frobnicate');
  });

  it('gathers --allow-host names from the flags and the config file, and refuses an empty one', () => {
    expect(parseServeArguments([], NO_ENV)).not.toHaveProperty('allowedHosts');
    expect(parseServeArguments(['--allow-host', 'plantstore', '--allow-host', 'api.test'], NO_ENV, { allowedHosts: ['web'] })).toMatchObject({
      allowedHosts: ['plantstore', 'api.test', 'web'],
    });
    expect(() => parseServeArguments(['--allow-host', ' '], NO_ENV)).toThrow('--allow-host');
  });

  it('reads --body-buffer-bytes (else the config file), and refuses one below the body limit', () => {
    expect(parseServeArguments([], NO_ENV)).not.toHaveProperty('bodyBufferBytes');
    expect(parseServeArguments(['--body-buffer-bytes', '4194304'], NO_ENV, { bodyBufferBytes: 8388608 })).toMatchObject({ bodyBufferBytes: 4194304 });
    expect(parseServeArguments(['--body-limit', '1024'], NO_ENV, { bodyBufferBytes: 8192 })).toMatchObject({ bodyBufferBytes: 8192 });
    expect(() => parseServeArguments(['--body-limit', '2048', '--body-buffer-bytes', '1024'], NO_ENV)).toThrow(
      /--body-buffer-bytes \(1024\) must be at least --body-limit \(2048\)/,
    );
    expect(() => parseServeArguments(['--body-buffer-bytes', 'lots'], NO_ENV)).toThrow(UsageError);
  });

  it('refuses a positional argument', () => {
    expect(() => parseServeArguments(['extra'], NO_ENV)).toThrow('extra');
  });

  it('refuses a value-taking flag given no value', () => {
    expect(() => parseServeArguments(['--port'], NO_ENV)).toThrow('--port');
  });
});
