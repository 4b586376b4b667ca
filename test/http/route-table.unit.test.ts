/** The route table: concrete paths before templates, 405 with the path's methods, decoded parameters. */
import type { IHttpOperation } from '@stoplight/types';
import { describe, expect, it } from 'vitest';
import { compileRouteTable } from '../../src/routing/route-table.js';

function operation(method: string, path: string, iid: string): IHttpOperation {
  return { id: iid, iid, method, path, responses: [], servers: [], request: {}, security: [] } as unknown as IHttpOperation;
}

const createPlant = operation('post', '/plants', 'createPlant');
const listPlants = operation('get', '/plants', 'listPlants');
const getPlant = operation('get', '/plants/{id}', 'getPlant');
const deletePlant = operation('delete', '/plants/{id}', 'deletePlant');
const mine = operation('get', '/plants/mine', 'myPlants');
const leaf = operation('get', '/plants/{id}/leaves/{leaf}', 'getLeaf');
const table = compileRouteTable([createPlant, listPlants, getPlant, deletePlant, mine, leaf]);

describe('compileRouteTable', () => {
  it('finds a concrete path by method, case-insensitively', () => {
    expect(table.match('POST', '/plants')).toEqual({ kind: 'operation', operation: createPlant, pathParameters: {}, path: '/plants' });
    expect(table.match('post', '/plants')).toMatchObject({ kind: 'operation', operation: createPlant });
    expect(table.match('GET', '/plants')).toMatchObject({ kind: 'operation', operation: listPlants });
  });

  it('finds a concrete path holding characters a client must encode, sent percent-encoded (DigitalOcean’s /<upload_url>)', () => {
    const upload = operation('put', '/<upload_url>', 'inference_upload_batch_file');
    const literal = compileRouteTable([upload]);
    expect(literal.match('PUT', '/%3Cupload_url%3E')).toEqual({ kind: 'operation', operation: upload, pathParameters: {}, path: '/<upload_url>' });
    expect(literal.match('PUT', '/%3cupload_url%3e')).toMatchObject({ kind: 'operation', operation: upload });
    expect(literal.match('PUT', '/%3Cother%3E')).toEqual({ kind: 'no-path' });
    expect(literal.match('PUT', '/%E0%A4%A')).toEqual({ kind: 'no-path' });
  });

  it('prefers a concrete path over a template that also matches', () => {
    expect(table.match('GET', '/plants/mine')).toMatchObject({ kind: 'operation', operation: mine });
  });

  it('fills path parameters, percent-decoded', () => {
    expect(table.match('GET', '/plants/42')).toEqual({ kind: 'operation', operation: getPlant, pathParameters: { id: '42' }, path: '/plants/42' });
    expect(table.match('GET', '/plants/a%20b')).toMatchObject({ pathParameters: { id: 'a b' } });
    expect(table.match('GET', '/plants/7/leaves/3')).toEqual({
      kind: 'operation',
      operation: leaf,
      pathParameters: { id: '7', leaf: '3' },
      path: '/plants/7/leaves/3',
    });
  });

  it('keeps a malformed percent-encoding as written instead of throwing', () => {
    expect(table.match('GET', '/plants/%E0%A4%A')).toMatchObject({ kind: 'operation', pathParameters: { id: '%E0%A4%A' } });
  });

  it('does not let a parameter span segments', () => {
    expect(table.match('GET', '/plants/1/2')).toEqual({ kind: 'no-path' });
  });

  it('tells a wrong method (with the sorted methods of the path) from a wrong path', () => {
    expect(table.match('PUT', '/plants')).toEqual({ kind: 'no-method', allow: ['GET', 'POST'] });
    expect(table.match('POST', '/plants/42')).toEqual({ kind: 'no-method', allow: ['DELETE', 'GET'] });
    expect(table.match('POST', '/pets')).toEqual({ kind: 'no-path' });
    expect(table.match('POST', '/plants/')).toEqual({ kind: 'no-path' });
  });

  it('treats regular-expression characters in paths literally', () => {
    const dotted = compileRouteTable([operation('get', '/v1.0/{name}', 'dotted')]);
    expect(dotted.match('GET', '/v1.0/x')).toMatchObject({ kind: 'operation' });
    expect(dotted.match('GET', '/v1x0/x')).toEqual({ kind: 'no-path' });
  });

  it('lists the methods of a path for CORS preflights, undefined for an unknown path', () => {
    expect(table.methodsOf('/plants')).toEqual(['GET', 'POST']);
    expect(table.methodsOf('/plants/9')).toEqual(['DELETE', 'GET']);
    expect(table.methodsOf('/nowhere')).toBeUndefined();
  });

  describe("under base paths (the document's servers: /api/v3)", () => {
    const root = operation('get', '/', 'root');
    const based = compileRouteTable([createPlant, getPlant, root, operation('get', '/api/v3/plants', 'ownPath')], ['/api/v3', '/v1']);

    it('finds an operation under each base path, with its path as the document reads it', () => {
      expect(based.match('GET', '/api/v3/plants/42')).toEqual({ kind: 'operation', operation: getPlant, pathParameters: { id: '42' }, path: '/plants/42' });
      expect(based.match('POST', '/v1/plants')).toMatchObject({ kind: 'operation', operation: createPlant, path: '/plants' });
      expect(based.match('GET', '/api/v3')).toMatchObject({ kind: 'operation', operation: root, path: '/' });
      expect(based.match('GET', '/api/v3/')).toMatchObject({ kind: 'operation', operation: root, path: '/' });
      expect(based.match('DELETE', '/v1/plants')).toEqual({ kind: 'no-method', allow: ['POST'] });
      expect(based.methodsOf('/v1/plants/9')).toEqual(['GET']);
    });

    it("the document's own paths win where they collide, and a prefix is a whole segment", () => {
      expect(based.match('GET', '/api/v3/plants')).toMatchObject({ kind: 'operation', path: '/api/v3/plants' });
      expect(based.match('POST', '/api/v3plants')).toEqual({ kind: 'no-path' });
      expect(based.match('GET', '/api/v4/plants/1')).toEqual({ kind: 'no-path' });
      expect(table.match('GET', '/api/v3/plants/42')).toEqual({ kind: 'no-path' });
    });
  });
});
