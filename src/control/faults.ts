import { FaultError, type Fault, type FaultSpec } from '../faults/faults.js';
import { json, noContent, notFound, refused } from './answers.js';
import type { ControlHandler } from './context.js';

export const listFaults: ControlHandler = (_request, { faults }) => json(200, `[${faults.list().map(faultJson).join(',')}]`);

export const addFault: ControlHandler = ({ body }, { faults }) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refused('schemaViolation', 'the body must be a FaultSpec object, e.g. {"kind":"status","status":503}');
  }
  // The document checked each field's type; faults.add checks how they fit together.
  const spec = body as unknown as FaultSpec;
  try {
    return json(201, faultJson(faults.add(spec)));
  } catch (error) {
    if (error instanceof FaultError) return refused('schemaViolation', error.message);
    throw error;
  }
};

export const clearFaults: ControlHandler = (_request, { faults }) => {
  faults.clear();
  return noContent();
};

export const deleteFault: ControlHandler = ({ pathParameters }, { faults }) => {
  const id = pathParameters.id ?? '';
  return faults.remove(id)
    ? noContent()
    : notFound(`no fault has id "${id}"; a fault with times removes itself once used up (listFaults shows those in force)`);
};

/** The id first, so a person reading the list sees which fault is which. */
function faultJson(fault: Fault): string {
  const { id, ...rest } = fault;
  return JSON.stringify({ id, ...rest });
}
