/** The run's breaths between units of long synchronous work: core's, which loading a document takes too (src/core/breathe.ts). */
export { BREATH_MS, breather } from '../../src/core/breathe.js';
