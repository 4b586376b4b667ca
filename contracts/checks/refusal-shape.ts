/** A refusal's fingerprint (see runner/evidence.ts): how a target says no, with the values taken out. */
import { isJsonObject, parseJsonExact } from '../generators/json-value.js';
import type { RefusalShape } from './types.js';

/**
 * A refusal's fingerprint: status, the first integer property of its body (an error code), its
 * first text property with numbers taken out, and the refused id (`id`, a string one) too: "a part
 * with id \"k3x…\" already exists" and "a part with id \"\" already exists" are one shape.
 */
export function shapeOf(status: number, body: string, id?: bigint | string): RefusalShape {
  const normalised = (text: string): string => numbersOut(typeof id === 'string' ? withoutId(text, id) : text);
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

function numbersOut(text: string): string {
  return text.replace(/-?\d+/g, '#').slice(0, 200);
}

/** Quoted as JSON (how most servers show it), then bare where it is long enough not to be mistaken for a word. */
function withoutId(text: string, id: string): string {
  const quoted = text.split(JSON.stringify(id)).join('#');
  return id.length >= 6 ? quoted.split(id).join('#') : quoted;
}

export function sameShape(a: RefusalShape, b: RefusalShape): boolean {
  return a.status === b.status && a.code === b.code && a.message === b.message;
}

export function describeShape(shape: RefusalShape): string {
  return `${shape.status}${shape.code === undefined ? '' : ` with code ${shape.code}`}${shape.message === undefined ? '' : ` and the message "${shape.message}"`}`;
}
