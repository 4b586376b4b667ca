/**
 * The diagnostic severities plantstore reads and writes, as @stoplight/types numbers them. Written
 * here, not imported: importing that package for its enum cost every start ~5 ms (its types are
 * erased; only the enum is code). test/core/severity.unit.test.ts holds them to the package's.
 */
import type { DiagnosticSeverity } from '@stoplight/types';

export const SEVERITY = { error: 0, warning: 1 } as const satisfies Record<string, DiagnosticSeverity>;
