import { FaultError, type Fault, type FaultSpec, type Faults } from '../faults/faults.js';
import { caughtUp, json, noContent, notFound, refused } from './answers.js';
import type { ControlHandler } from './context.js';

/** Faults shared by replicas: this replica's view brought up to date (its own changes written first). */
const synced = (faults: Faults) => caughtUp(faults.shared?.synced);

export const listFaults: ControlHandler = async (_request, { faults }) => (await synced(faults)) ?? json(200, `[${faults.list().map(faultJson).join(',')}]`);

export const addFault: ControlHandler = async ({ body }, { faults }) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refused('schemaViolation', 'the body must be a FaultSpec object, e.g. {"kind":"status","status":503}');
  }
  // The document checked each field's type; faults.add checks how they fit together.
  const spec = body as unknown as FaultSpec;
  let added: Fault;
  try {
    added = faults.add(spec);
  } catch (error) {
    if (error instanceof FaultError) return refused('schemaViolation', error.message);
    throw error;
  }
  // Answered once every replica can read it.
  return (await synced(faults)) ?? json(201, faultJson(added));
};

export const clearFaults: ControlHandler = async (_request, { faults }) => {
  faults.clear();
  return (await synced(faults)) ?? noContent();
};

export const deleteFault: ControlHandler = async ({ pathParameters }, { faults }) => {
  const id = pathParameters.id ?? '';
  const before = await synced(faults);
  if (before) return before;
  if (!faults.remove(id)) return notFound(`no fault has id "${id}"; a fault with times removes itself once used up (listFaults shows those in force)`);
  return (await synced(faults)) ?? noContent();
};

/** The id first, so a person reading the list sees which fault is which. */
function faultJson(fault: Fault): string {
  const { id, ...rest } = fault;
  return JSON.stringify({ id, ...rest });
}
