import { DiagnosticSeverity } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { SEVERITY } from '../../src/core/prism/severity.js';

describe('diagnostic severities (written in core, not imported at start)', () => {
  it('are the numbers @stoplight/types gives them', () => {
    expect(SEVERITY).toEqual({ error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning });
  });
});
