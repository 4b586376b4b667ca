import type { StoreChange } from './plant-store.js';
import type { TenantId } from './tenants.js';
import { parseInt64 } from '../core/json/int64.js';

/** One line of the plant log: a tenant's change. */
export interface LogRecord {
  readonly tenant: TenantId;
  readonly change: StoreChange;
}

export type DecodedRecord = { readonly ok: true; readonly record: LogRecord } | { readonly ok: false; readonly reason: string };

/**
 * The record as one JSON line with its newline. Ids are decimal strings so every int64 survives
 * (a JSON number would round beyond 2^53); JSON.stringify escapes newlines inside names, so a
 * record never spans lines.
 */
export function encodeRecord(tenant: TenantId, change: StoreChange): string {
  switch (change.kind) {
    case 'create': {
      const { id, name, tag } = change.plant;
      const fields = tag === undefined ? { tenant, kind: 'create', id: id.toString(), name } : { tenant, kind: 'create', id: id.toString(), name, tag };
      return `${JSON.stringify(fields)}\n`;
    }
    case 'delete':
      return `${JSON.stringify({ tenant, kind: 'delete', id: change.id.toString() })}\n`;
    case 'reset':
      return `${JSON.stringify({ tenant, kind: 'reset' })}\n`;
  }
}

/** Reads one line (without its newline); a line that is not a whole record says why. */
export function decodeRecord(line: string): DecodedRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, reason: `not valid JSON (${(error as Error).message})` };
  }
  return recordOf(value);
}

/** A parsed line as a record, or why it is not one. */
export function recordOf(value: unknown): DecodedRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const fields = value as Record<string, unknown>;
  const { tenant, kind } = fields;
  if (typeof tenant !== 'string' || tenant === '') return { ok: false, reason: 'no "tenant" string' };
  switch (kind) {
    case 'reset':
      return { ok: true, record: { tenant, change: { kind: 'reset' } } };
    case 'delete': {
      const id = readId(fields.id);
      return typeof id === 'string' ? { ok: false, reason: id } : { ok: true, record: { tenant, change: { kind: 'delete', id } } };
    }
    case 'create': {
      const id = readId(fields.id);
      if (typeof id === 'string') return { ok: false, reason: id };
      const { name, tag } = fields;
      if (typeof name !== 'string') return { ok: false, reason: 'create without a "name" string' };
      if (tag !== undefined && typeof tag !== 'string') return { ok: false, reason: '"tag" is not a string' };
      const plant = tag === undefined ? { id, name } : { id, name, tag };
      return { ok: true, record: { tenant, change: { kind: 'create', plant } } };
    }
    default:
      return { ok: false, reason: `unknown "kind" ${JSON.stringify(kind) ?? 'undefined'}` };
  }
}

/** The id, or why it is not an int64 written as a decimal string. */
function readId(id: unknown): bigint | string {
  // The shape is checked apart from the range only to say which of the two is wrong.
  if (typeof id !== 'string' || !/^(?:0|-?[1-9][0-9]*)$/.test(id)) return `"id" is not a decimal integer string: ${JSON.stringify(id) ?? 'undefined'}`;
  return parseInt64(id) ?? `"id" ${id} is outside int64`;
}
