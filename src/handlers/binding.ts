// Declared by the pipeline (src/http/binding.ts), which calls it; handlers implement it.
export type { Binding, HandlerContext } from '../http/binding.js';
