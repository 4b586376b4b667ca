import { PASS, refused, routed, type Decision, type RequestContext, type Stage } from '../context.js';
import { ArrivedRequest } from '../request.js';
import type { ValidationOutcome } from '../../journal/journal.js';

/** One outcome for every valid request (the journal keeps a reference to it). */
const VALID: ValidationOutcome = Object.freeze({ ok: true });

/** Checks the request against the operation (parameters, content type, exact JSON, schema). */
export const validateStage: Stage = { name: 'validate', run: (context) => validate(context, false) };

/**
 * The same check for a site that hands an invalid request on (proxy mode without --proxy-strict):
 * the outcome is kept for the handler and the journal, and the real implementation judges it.
 */
export const forwardingValidateStage: Stage = { name: 'validate', run: (context) => validate(context, true) };

function validate(context: RequestContext, forwardInvalid: boolean): Decision {
  const operation = routed(context);
  const input = new ArrivedRequest(context.request.headers, context.method, context.operationPath, context.query, context.body);
  context.input = input;
  let validation = operation.validate(input);
  // Invalid for the route's first operation, the request may be another's on the route (Box's "#" alternatives): that one answers it.
  for (const alternative of validation.ok ? [] : context.alternatives) {
    const other = alternative.validate(input);
    if (other.ok) {
      context.operation = alternative;
      validation = other;
      break;
    }
  }
  context.validation = validation.ok ? VALID : { ok: false, error: validation.failure.error, message: validation.failure.message };
  if (validation.ok) {
    context.validBody = validation.body;
    return PASS;
  }
  // A stated preference is answered from the document even for an invalid body, as Prism does for codes.
  return context.preferences || forwardInvalid ? PASS : refused(validation.failure, operation);
}
