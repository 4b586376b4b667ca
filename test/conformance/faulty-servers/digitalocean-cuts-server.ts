/**
 * DigitalOcean's shapes, cut small (test/fixtures/documents/digitalocean-cuts.yaml), correct by its
 * document: clusters whose uuid the server assigns, and under each its users, named by the client.
 * A user is added, listed, read or removed only under a cluster that exists: any other is 404, as
 * DigitalOcean (and serve) answer. Removing a cluster removes its users. Evaluation datasets are
 * listed under other names than their create answers (dataset_uuid for evaluation_dataset_uuid).
 * Reserved IPv6 addresses are created with a region's slug and named by their address. One fault: every user
 * added is refused as if its cluster did not exist. Removing a cluster removes its users, or, where
 * `refuseBusyCluster` is set, is refused with 409 while it has any (as many real APIs do): both correct.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { jsonObjectBody } from './exact-json.js';
import { listenWithBodies, type Answer, type LocalServer } from './http-double.js';

export const DIGITALOCEAN_FAULTS = {
  'add-user-refused': 'POST /v2/databases/{uuid}/users answers 404 "no cluster" even under a cluster that exists',
} as const;

export type DigitalOceanFault = keyof typeof DIGITALOCEAN_FAULTS;

const ENGINES = new Set(['pg', 'mysql', 'valkey']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Cluster {
  readonly id: string;
  readonly name: string;
  readonly engine: string;
  readonly users: Map<string, { readonly name: string; readonly readonly?: boolean; readonly version?: number }>;
}

export interface DigitalOceanShape {
  /** A cluster with users is not deleted: 409 until its users are. */
  readonly refuseBusyCluster?: boolean;
}

export function startDigitalOceanCuts(fault?: DigitalOceanFault, shape: DigitalOceanShape = {}): Promise<LocalServer> {
  const clusters = new Map<string, Cluster>();
  const error = (status: number, message: string): Answer => ({ status, body: { id: status === 404 ? 'not_found' : 'bad_request', message } });
  const datasets = new Map<string, { readonly name?: string }>();
  // Created as evaluation_dataset_uuid, listed as dataset_uuid and dataset_name: DigitalOcean's own names.
  const dataset = (method: string, rest: readonly string[], contentType: string | undefined, body: string): Answer => {
    if (rest.length === 0 && method === 'GET')
      return {
        status: 200,
        body: {
          evaluation_datasets: [...datasets].map(([uuid, { name }]) => ({
            dataset_uuid: uuid,
            ...(name === undefined ? {} : { dataset_name: name }),
            row_count: 0,
          })),
        },
      };
    if (rest.length === 0 && method === 'POST') {
      const read = jsonObjectBody(body, contentType);
      if (typeof read === 'string') return error(400, read);
      const name = read.get('name');
      if (name !== undefined && (typeof name !== 'string' || [...name].length > 100)) return error(400, 'name must be a string of at most 100 characters');
      const uuid = randomUUID();
      datasets.set(uuid, name === undefined ? {} : { name });
      return { status: 200, body: { evaluation_dataset_uuid: uuid } };
    }
    const uuid = rest[0] as string;
    if (rest.length === 1 && method === 'DELETE')
      return datasets.delete(uuid) ? { status: 200, body: { evaluation_dataset_uuid: uuid } } : error(404, `no dataset ${uuid}`);
    return error(404, `no ${method} ${rest.join('/')}`);
  };
  const addresses = new Map<string, { readonly ip: string; readonly region_slug: string; readonly reserved_at: string }>();
  let nextAddress = 1;
  // Reserved in a region, named by the address the server picks: a slug in the path names nothing.
  const reserved = (method: string, rest: readonly string[], contentType: string | undefined, body: string): Answer => {
    if (rest.length === 0 && method === 'GET') return { status: 200, body: { reserved_ipv6s: [...addresses.values()] } };
    if (rest.length === 0 && method === 'POST') {
      const read = jsonObjectBody(body, contentType);
      if (typeof read === 'string') return error(400, read);
      const region = read.get('region_slug');
      if (typeof region !== 'string') return error(400, 'region_slug must be a string');
      const address = { ip: `2001:db8::${(nextAddress++).toString(16)}`, region_slug: region, reserved_at: new Date().toISOString() };
      addresses.set(address.ip, address);
      return { status: 201, body: { reserved_ipv6: address } };
    }
    const address = rest.length === 1 && isIP(rest[0] as string) === 6 ? addresses.get(rest[0] as string) : undefined;
    if (address === undefined) return error(404, `no reserved address ${rest.join('/')}`);
    if (method === 'GET') return { status: 200, body: { reserved_ipv6: address } };
    if (method === 'DELETE') return addresses.delete(address.ip) ? { status: 204 } : error(404, `no reserved address ${address.ip}`);
    return error(404, `no ${method} ${rest.join('/')}`);
  };
  const shown = (cluster: Cluster) => ({ id: cluster.id, name: cluster.name, engine: cluster.engine });
  const handle = (method: string, path: string, authorization: string | undefined, contentType: string | undefined, body: string): Answer => {
    if (!/^Bearer \S+$/.test(authorization ?? '')) return { ...error(401, 'a bearer token is required'), headers: { 'www-authenticate': 'Bearer' } };
    const segments = path.split('/').slice(1).map(decodeURIComponent);
    if (segments[0] === 'v2' && segments[1] === 'reserved_ipv6') return reserved(method, segments.slice(2), contentType, body);
    if (segments[0] === 'v2' && segments[1] === 'gen-ai' && segments[2] === 'evaluation_datasets') return dataset(method, segments.slice(3), contentType, body);
    if (segments[0] !== 'v2' || segments[1] !== 'databases') return error(404, `no ${method} ${path}`);
    if (segments.length === 2) {
      if (method === 'GET') return { status: 200, body: { databases: [...clusters.values()].map(shown) } };
      if (method !== 'POST') return error(404, `no ${method} ${path}`);
      const read = jsonObjectBody(body, contentType);
      if (typeof read === 'string') return error(400, read);
      const name = read.get('name');
      const engine = read.get('engine');
      if (typeof name !== 'string' || name.length === 0 || [...name].length > 63) return error(400, 'name must be a string of 1 to 63 characters');
      if (typeof engine !== 'string' || !ENGINES.has(engine)) return error(400, 'engine must be one of pg, mysql, valkey');
      const cluster: Cluster = { id: randomUUID(), name, engine, users: new Map() };
      clusters.set(cluster.id, cluster);
      return { status: 201, body: shown(cluster) };
    }
    const id = segments[2] as string;
    const cluster = UUID.test(id) ? clusters.get(id.toLowerCase()) : undefined;
    if (segments.length === 3) {
      if (method === 'GET') return cluster === undefined ? error(404, `no cluster ${id}`) : { status: 200, body: shown(cluster) };
      if (method === 'DELETE' && shape.refuseBusyCluster === true && cluster !== undefined && cluster.users.size > 0)
        return { status: 409, body: { id: 'conflict', message: `cluster ${id} has ${cluster.users.size} users: delete them first` } };
      if (method === 'DELETE') return cluster !== undefined && clusters.delete(cluster.id) ? { status: 204 } : error(404, `no cluster ${id}`);
      return error(404, `no ${method} ${path}`);
    }
    if (segments[3] !== 'users' || segments.length > 5) return error(404, `no ${method} ${path}`);
    // The parent first: nothing is added to, listed in or read from a cluster that does not exist.
    if (cluster === undefined) return error(404, `no cluster ${id}`);
    if (segments.length === 4) {
      if (method === 'GET') return { status: 200, body: { users: [...cluster.users.values()].map(userShown) } };
      if (method !== 'POST') return error(404, `no ${method} ${path}`);
      if (fault === 'add-user-refused') return error(404, `no cluster ${id}`);
      const read = jsonObjectBody(body, contentType);
      if (typeof read === 'string') return error(400, read);
      const name = read.get('name');
      const readonly = read.get('readonly');
      if (typeof name !== 'string' || name.length === 0 || [...name].length > 63) return error(400, 'name must be a string of 1 to 63 characters');
      if (readonly !== undefined && typeof readonly !== 'boolean') return error(400, 'readonly must be a boolean');
      if (cluster.users.has(name)) return { status: 409, body: { id: 'conflict', message: `a user named ${JSON.stringify(name)} exists` } };
      const user = { name, ...(readonly === undefined ? {} : { readonly }) };
      cluster.users.set(name, user);
      return { status: 201, body: { user } };
    }
    const user = cluster.users.get(segments[4] as string);
    if (user === undefined) return error(404, `no user ${segments[4]} in cluster ${id}`);
    if (method === 'GET') return { status: 200, body: { user: userShown(user) } };
    if (method === 'DELETE') return cluster.users.delete(user.name) ? { status: 204 } : error(404, `no user ${user.name}`);
    if (method !== 'PUT') return error(404, `no ${method} ${path}`);
    const read = jsonObjectBody(body, contentType);
    if (typeof read === 'string') return error(400, read);
    const name = read.get('name');
    const readonly = read.get('readonly');
    if (name !== undefined && name !== user.name) return error(400, "name must be the path's user");
    if (readonly !== undefined && typeof readonly !== 'boolean') return error(400, 'readonly must be a boolean');
    // A replace: what it does not send is gone.
    const changed = { name: user.name, ...(readonly === undefined ? {} : { readonly }), version: (user.version ?? 0) + 1 };
    cluster.users.set(user.name, changed);
    // The user it changed, named as the path names it, whether the body named it or not.
    return { status: 200, body: { name: changed.name, version: changed.version } };
  };
  return listenWithBodies(
    (req, path, text) => handle(req.method ?? 'GET', path, req.headers.authorization, req.headers['content-type'], text),
    () => error(413, 'the body is too large'),
  );
}

/** A user as the document shows one (its version is the update's answer only). */
function userShown(user: { readonly name: string; readonly readonly?: boolean }): { name: string; readonly?: boolean } {
  return { name: user.name, ...(user.readonly === undefined ? {} : { readonly: user.readonly }) };
}
