// Defined by the pipeline, which puts them on the wire; handlers and the control API produce them.
export { JSON_HEADERS, type Answer, type Outcome } from '../http/answer.js';
