#!/usr/bin/env node
import { EXIT_CODES, PlantstoreError } from '../core/errors.js';
import { plantstoreVersion } from '../core/package.js';
import { printableLines } from '../log/logger.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: plantstore <command> [options]

Commands:
  serve    serve an OpenAPI document: a stand-in server (plantstore serve --help)
  verify   check an implementation against its OpenAPI document (plantstore verify --help)
  version  print plantstore's version (also --version)

Exit codes: 0 success, 1 the target does not conform (verify), 2 usage or set-up error.
`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      // Each command loads its own modules on demand: `--version` and `--help` load only the option tables.
      const { readServeFlags, SERVE_HELP } = await import('../server/options/resolve.js');
      if (readServeFlags(rest).help === true) {
        process.stdout.write(SERVE_HELP);
        return 0;
      }
      const { runServe } = await import('./serve.js');
      return runServe(rest);
    }
    case 'verify': {
      // Loaded here, not at the top: node:v8 costs every other command ~3 ms.
      (await import('./v8-tiering.js')).tuneTiering();
      const { runVerify } = await import('./verify.js');
      return runVerify(rest);
    }
    case 'version':
    case '--version':
    case '-V':
      process.stdout.write(`${plantstoreVersion()}\n`);
      return 0;
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"; expected serve, verify or version`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Our errors carry their exit code (src/core/errors.ts); anything else (parseArgs' usage errors,
    // a busy port) is a set-up error too. Messages carry paths and values a user typed: escaped, so
    // none acts on the terminal (a parser's multi-line diagnostic keeps its lines, indented).
    process.stderr.write(`plantstore: ${printableLines(error instanceof Error ? error.message : String(error))}\n`);
    const ours = error instanceof PlantstoreError;
    if (!ours && error instanceof Error && process.env.PLANTSTORE_DEBUG) process.stderr.write(`${error.stack}\n`);
    process.exitCode = ours ? error.exitCode : EXIT_CODES.setup;
  },
);
