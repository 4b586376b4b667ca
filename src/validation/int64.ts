/**
 * Kept only for src/control/plants.ts, which another branch is rewriting: it moves to
 * src/core/json/int64.ts (parseInt64) there, and this file goes. Do not import it anywhere else.
 */
export { INT64_MAX, INT64_MIN } from '../core/json/int64.js';
