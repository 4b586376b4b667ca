/**
 * An item of many properties (patterns, arrays of objects, enums): a schema that takes tens of ms to
 * compile, and hundreds of them seconds to read and build. For the tests of verify's signals during
 * long synchronous work.
 */
export function heavyItemSchema(index: number, properties = 40): object {
  const declared: Record<string, object> = { name: { type: 'string' } };
  for (let k = 0; k < properties; k += 1) {
    declared[`field${k}`] =
      k % 3 === 0
        ? { type: 'string', pattern: `^[a-z]{1,${k + 2}}$`, maxLength: 40 }
        : k % 3 === 1
          ? { type: 'array', items: { type: 'object', properties: { a: { type: 'integer', minimum: k }, b: { type: 'string', format: 'date-time' } } } }
          : { type: 'object', properties: { x: { type: 'number' }, y: { type: 'string', enum: ['p', 'q', `r${index}`] } } };
  }
  return { type: 'object', required: ['name'], properties: declared };
}
