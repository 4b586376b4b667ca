/**
 * One code point, any but a lone surrogate, shrinking towards printable ASCII: fast-check's
 * 'binary' unit without its cost (see CODE_POINT).
 */
import fc from 'fast-check';

const PRINTABLE_FIRST = 0x20;
const PRINTABLE_COUNT = 0x7f - PRINTABLE_FIRST;
const SURROGATES = { first: 0xd800, count: 0x800 };

/** Index → code point: printable ASCII first (shrinking goes there), then the control characters, then the rest; no surrogates. */
function codePointAt(index: number): number {
  if (index < PRINTABLE_COUNT) return PRINTABLE_FIRST + index;
  if (index < 0x7f) return index - PRINTABLE_COUNT;
  return index < SURROGATES.first ? index : index + SURROGATES.count;
}

function indexOf(code: number): number {
  if (code >= SURROGATES.first + SURROGATES.count) return code - SURROGATES.count;
  if (code >= 0x7f) return code;
  return code >= PRINTABLE_FIRST ? code - PRINTABLE_FIRST : code + PRINTABLE_COUNT;
}

/**
 * Any code point but a lone surrogate, as fast-check's 'binary' unit draws; that unit's unmapper builds
 * a 1.1-million-entry table on first use, a second of every verify start.
 */
export const CODE_POINT = fc.integer({ min: 0, max: 0x10ffff - SURROGATES.count }).map(
  (index) => String.fromCodePoint(codePointAt(index)),
  (value) => {
    const code = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (code === undefined || String.fromCodePoint(code) !== value || (code >= SURROGATES.first && code < SURROGATES.first + SURROGATES.count)) {
      throw new Error('not a single code point');
    }
    return indexOf(code);
  },
);
