import { errorMessage, failure } from '../../core/errors.js';
import { PASS, refused, routed, type Stage } from '../context.js';
import { readPrefer } from '../prefer.js';
import { headerText } from '../../core/http/headers.js';

/**
 * Reads Prism's Prefer conventions (the API site only: the control API has nothing to mock). A
 * malformed one is refused before the handler runs, so it stores nothing.
 */
export const preferStage: Stage = {
  name: 'prefer',
  run(context) {
    const read = readPrefer(headerText(context.request.headers.prefer));
    if (!read.ok) return refused(failure('badPrefer', errorMessage('badPrefer', read.problem)), routed(context));
    context.preferences = read.preferences;
    return PASS;
  },
};
