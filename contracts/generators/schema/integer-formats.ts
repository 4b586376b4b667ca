/**
 * The int32 and int64 formats: their ranges. The bounds prism-http writes into int64 schemas on its
 * own (±(2^53−1)) are undone in src/core/prism/int64-bounds.ts, shared with the server.
 */
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN } from '../../../src/core/json/int64.js';

export const INT64 = { min: INT64_MIN, max: INT64_MAX } as const;
export const INT32 = { min: Number(INT32_MIN), max: Number(INT32_MAX) } as const;
