import { PASS, type Stage } from '../context.js';
import { parsePrefer } from '../prefer.js';
import { headerText } from '../../core/http/headers.js';

/** Reads Prism's Prefer conventions (the API site only: the control API has nothing to mock). */
export const preferStage: Stage = {
  name: 'prefer',
  run(context) {
    context.preferences = parsePrefer(headerText(context.request.headers.prefer));
    return PASS;
  },
};
