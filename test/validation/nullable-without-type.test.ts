/**
 * OpenAPI 3.0's `nullable: true` with no `type` beside it (Twilio's public documents have 28 such
 * properties): it adds nothing, so the property takes any value, null included. Ajv refuses to
 * compile such a schema, so verify stopped with no verdict before a request was sent.
 */
import { describe, expect, it } from 'vitest';
import { compileBodyCheck } from '../../src/core/prism/adapter.js';
import { typesOf } from '../../src/core/schema/types.js';

const schema = {
  type: 'object',
  required: ['sid'],
  properties: {
    sid: { type: 'string' },
    event_data: { nullable: true, description: 'any JSON, or null' },
    note: { type: 'string', nullable: true },
  },
};

describe('nullable without a type', () => {
  for (const direction of ['request', 'response'] as const) {
    it(`compiles, and judges as the document says (${direction})`, () => {
      const check = compileBodyCheck(schema, undefined, direction);
      expect(check).toBeDefined();
      expect(check?.({ sid: 'a', event_data: null })).toBeUndefined();
      expect(check?.({ sid: 'a', event_data: { any: [1, 'x'] }, note: null })).toBeUndefined();
      // Still judged: nullable beside a type keeps that type, and required stays required.
      expect(check?.({ sid: 'a', note: 5 })).toBeDefined();
      expect(check?.({ event_data: 1 })).toBeDefined();
    });
  }
});

describe('nullable beside allOf with no type (Box: shared_link is allOf [SharedLink], nullable)', () => {
  const linked = {
    type: 'object',
    properties: {
      shared_link: { allOf: [{ type: 'object', required: ['url'], properties: { url: { type: 'string' } } }], nullable: true, description: 'null when none' },
      owner: { allOf: [{ type: 'string' }], nullable: false },
    },
  };
  for (const direction of ['request', 'response'] as const) {
    it(`admits null besides what the branches admit (${direction})`, () => {
      const check = compileBodyCheck(linked, undefined, direction);
      expect(check?.({ shared_link: null })).toBeUndefined();
      expect(check?.({ shared_link: { url: 'https://example.com' } })).toBeUndefined();
      expect(check?.({ shared_link: {} })).toBeDefined();
      expect(check?.({ shared_link: 'text' })).toBeDefined();
      // nullable: false adds nothing.
      expect(check?.({ owner: null })).toBeDefined();
    });
  }
});

describe("nullable in an allOf branch of its own (Box's WebLink: shared_link is allOf [SharedLink, {description}, {nullable: true}])", () => {
  const linked = {
    type: 'object',
    properties: {
      shared_link: {
        allOf: [{ type: 'object', required: ['url'], properties: { url: { type: 'string' } } }, { description: 'null when none' }, { nullable: true }],
      },
      // A later word that it may not be null is the last word, as core's normaliser reads it.
      owner: { allOf: [{ type: 'string' }, { nullable: true }, { nullable: false }] },
      // A branch with its own type is that branch's: null fails the other branch.
      parent: { allOf: [{ type: 'object' }, { type: 'object', nullable: true }] },
    },
  };
  for (const direction of ['request', 'response'] as const) {
    it(`admits null besides what the other branches admit, as core's normaliser reads it (${direction})`, () => {
      const check = compileBodyCheck(linked, undefined, direction);
      expect(check?.({ shared_link: null })).toBeUndefined();
      expect(check?.({ shared_link: { url: 'https://example.com' } })).toBeUndefined();
      expect(check?.({ shared_link: {} })).toBeDefined();
      expect(check?.({ shared_link: 'text' })).toBeDefined();
      expect(check?.({ owner: null })).toBeDefined();
      // Answers are judged with allOf merged first (prism's reading, forAnswers), which keeps that branch's null.
      if (direction === 'request') expect(check?.({ parent: null })).toBeDefined();
      for (const name of ['shared_link', 'owner', 'parent']) {
        expect(typesOf(linked.properties[name as keyof typeof linked.properties])?.includes('null'), name).toBe(name === 'shared_link');
      }
    });
  }
});
