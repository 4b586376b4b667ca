/**
 * application/x-www-form-urlencoded bodies are checked against their schema
 * (test/fixtures/form-bodies.yaml): values read by the property's type, repeated keys as arrays,
 * int64 exactly; a bad one is refused naming the field.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectError, send, serverFor } from '../support/server.js';

const DOCUMENT = fileURLToPath(new URL('../fixtures/form-bodies.yaml', import.meta.url));
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('form-encoded bodies', () => {
  const server = serverFor({ spec: DOCUMENT });
  const order = (body: string) => send(`${server.current.url}/orders`, { method: 'POST', headers: FORM, body });

  it.each([
    'item=fern&quantity=2',
    'item=fern&quantity=2&price=9.5&gift=true&tags=green&tags=big',
    'item=fern&quantity=1&ids=9223372036854775807&ids=-9223372036854775808',
    'item=Monstera%20deliciosa&quantity=3&tags=a',
  ])('accepts %s', async (body) => {
    const reply = await order(body);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ placed: true });
  });

  it.each([
    ['item=fern&quantity=two', 'quantity'],
    ['item=fern&quantity=0', 'quantity'],
    ['item=fern&quantity=1.5', 'quantity'],
    ['item=fern', 'quantity'],
    ['quantity=1', 'item'],
    ['item=&quantity=1', 'item'],
    ['item=fern&quantity=1&gift=maybe', 'gift'],
    ['item=fern&quantity=1&price=cheap', 'price'],
    ['item=fern&quantity=1&ids=9223372036854775808', 'int64'],
    ['item=fern&quantity=1&ids=1&ids=x', 'ids'],
  ])('refuses %s naming %s', async (body, field) => {
    expect(expectError(await order(body), 400, 422)).toContain(field);
  });

  describe('multipart/form-data', () => {
    const BOUNDARY = 'plantstore-boundary';
    const part = (name: string, content: Buffer) =>
      Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\n\r\n`),
        content,
        Buffer.from('\r\n'),
      ]);
    const upload = (...parts: Buffer[]) =>
      send(`${server.current.url}/uploads`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]),
      });
    // Not UTF-8: a binary part must not make the body unreadable.
    const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]);

    it('accepts a body with every required part, binary ones too', async () => {
      const reply = await upload(part('file', BINARY), part('title', Buffer.from('a fern')));
      expect(reply.status, reply.text).toBe(200);
    });

    it('refuses a body without a required part, naming it', async () => {
      expect(expectError(await upload(part('file', BINARY)), 400, 422)).toContain('"title"');
    });
  });
});
