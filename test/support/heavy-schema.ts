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

/**
 * A document of `operations` creates, each taking and answering a heavy item; `answerOf` may put
 * something else as an operation's answer (a $ref read from a pipe).
 */
export function heavyDocument(operations: number, title: string, answerOf: (index: number) => object = heavyItemSchema): object {
  const paths: Record<string, object> = {};
  for (let i = 0; i < operations; i += 1) {
    paths[`/things${i}`] = {
      post: {
        operationId: `create${i}`,
        requestBody: { required: true, content: { 'application/json': { schema: heavyItemSchema(i) } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: answerOf(i) } } }, '400': { description: 'refused' } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title, version: '1' }, paths };
}
