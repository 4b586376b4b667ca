/** A refusal's fingerprint (see runner/evidence.ts): how a target says no, with the values taken out. */
import { isJsonObject, parseJsonExact } from '../generators/json-value.js';
import type { RefusalShape } from './types.js';

/** A refusal's fingerprint: status, the first integer property of its body (an error code), its first text property with numbers taken out. */
export function shapeOf(status: number, body: string): RefusalShape {
  let parsed;
  try {
    parsed = parseJsonExact(body);
  } catch {
    return { status, code: undefined, message: normalised(body) };
  }
  if (!isJsonObject(parsed)) return { status, code: undefined, message: undefined };
  const values = Object.values(parsed);
  const code = values.find((v) => typeof v === 'number' || typeof v === 'bigint');
  const message = values.find((v): v is string => typeof v === 'string');
  return { status, code: code === undefined ? undefined : String(code), message: message === undefined ? undefined : normalised(message) };
}

function normalised(text: string): string {
  return text.replace(/-?\d+/g, '#').slice(0, 200);
}

export function sameShape(a: RefusalShape, b: RefusalShape): boolean {
  return a.status === b.status && a.code === b.code && a.message === b.message;
}

export function describeShape(shape: RefusalShape): string {
  return `${shape.status}${shape.code === undefined ? '' : ` with code ${shape.code}`}${shape.message === undefined ? '' : ` and the message "${shape.message}"`}`;
}
