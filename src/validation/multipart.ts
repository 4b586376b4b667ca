/**
 * multipart/form-data bodies: the parts the schema requires must be there. Only the parts' names
 * are read (their Content-Disposition lines, in latin1 so binary parts cannot break the reading);
 * the parts' contents are not checked against their schemas (docs/limitations.md).
 */
import { flatten, resolverOf } from '../core/openapi/schema-read.js';

export const MULTIPART_MEDIA_TYPE = 'multipart/form-data';

/** The names of the required parts missing from a body. */
export type PartsCheck = (body: Buffer) => readonly string[];

const PART_NAME = /content-disposition:[ \t]*form-data;[^\r\n]*?\bname="([^"]*)"/gi;

export function compilePartsCheck(schema: object, operation: object): PartsCheck | undefined {
  const flat = flatten(schema as Readonly<Record<string, unknown>>, resolverOf(operation), 0);
  const required = Array.isArray(flat.required) ? flat.required.filter((name): name is string => typeof name === 'string') : [];
  if (required.length === 0) return undefined;
  return (body) => {
    const present = new Set(Array.from(body.toString('latin1').matchAll(PART_NAME), (match) => match[1] ?? ''));
    return required.filter((name) => !present.has(name));
  };
}
