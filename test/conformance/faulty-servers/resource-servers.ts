/**
 * Two small stateful servers on node:http, correct by default, each able to misbehave in one named
 * way: the public Plant Store (client-assigned int64 ids: GET /plants?limit, POST /plants,
 * DELETE /plants/{id}) and the expanded Petstore (server-assigned ids: GET /pets, POST /pets,
 * GET and DELETE /pets/{id}), which also serves test/fixtures/documents/pets-crud.yaml (kind
 * 'crud': PUT and PATCH /pets/{id} as well). The suite must pass the correct ones with no failure and no warning,
 * and catch every fault with the check named for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exactInteger, isJsonNumber, isJsonObject, JsonSyntaxError, parseExactJson } from './exact-json.js';
import { listenLocally, readBody, respond, type Answer, type LocalServer } from './http-double.js';

export const RESOURCE_FAULTS = {
  'list-hides-creates': 'the list never shows what was created (it answers [])',
  'delete-does-nothing': 'DELETE answers 204 and removes nothing',
  'limit-ignored': 'the list answers every item whatever the limit',
  'deleted-id-still-taken': 'a deleted plant is gone from the list, but its id is refused as taken for ever',
  'charset-refused': 'a create sent as "application/json; charset=utf-8" is refused with 400',
  'read-ignores-store': 'GET /pets/{id} answers a made-up pet for any id, deleted or never created',
  'read-finds-nothing': 'GET /pets/{id} answers 404 for every id, even one just created',
  'edge-id-refused': 'a plant with id 0 or an int64 extreme is refused (400) though no plant holds it',
  'refuses-big-ids': "ids of 2^53 and more are refused (as Prism's mock does), though the document says int64",
  'update-ignored': 'PUT and PATCH /pets/{id} answer 200 with the changed pet, but store nothing',
  'update-refused': 'PATCH /pets/{id} refuses every change with 400',
  'given-id-ignored': "a create that gives an id gets another one, the server's own (optional-ids.yaml)",
  'id-less-create-refused': 'a create without an id is refused with 400, though the id is optional (optional-ids.yaml)',
  'id-less-create-forgotten': 'a create without an id answers a pet with a new id, but stores nothing: GET of that id is 404 (optional-ids.yaml)',
  'total-counts-page': 'GET /pets answers X-Total-Count as the number of pets on the page, not of all pets (optional-ids.yaml declares it)',
  'rate-limit-not-a-number': 'GET /pets/{id} answers X-Rate-Limit: lots, where optional-ids.yaml declares a whole number',
  'list-mangles-names': "the list answers each name with every character outside printable ASCII as '?' (a charset bug)",
  'create-drops-tag': 'POST /pets answers the pet with its tag, but stores it without',
  'read-returns-another': 'GET /pets/{id} answers the pet created last, whichever id was asked for',
  'negative-id-refused': 'a plant with a negative id is refused (400), though the id is an int64',
  'filter-ignored': 'GET /pets?tags=… answers every pet, whatever the tags asked for',
  'filter-half-applied': 'GET /pets?tags=a&tags=b answers only the pets tagged a (the first value)',
  'duplicate-overwrites': 'a create with a taken id is refused (409), but has already stored its name and tag over the item',
  'reuses-deleted-ids': 'a new pet gets the lowest free id, so the id of a pet deleted before is given to the next one (allowed by HTTP)',
  'delete-ignores-credentials':
    'DELETE /plants/{id} without a bearer token deletes the plant, then answers the auth refusal (400, the status it also uses for a bad id)',
} as const satisfies Record<string, string>;

export type ResourceFault = keyof typeof RESOURCE_FAULTS;

/**
 * Which document the server answers: the public Plant Store, the expanded Petstore, the Petstore with
 * PUT and PATCH, or optional-ids.yaml (the Swagger Petstore 3's shape: a create may give the id or leave it to the server).
 */
export type ResourceKind = 'plants' | 'pets' | 'crud' | 'optional';

export type ResourceServer = LocalServer;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/**
 * A correct shape, not a fault (plants only): `unaskedPage`, the most a list sent no limit answers
 * (Gitea's 30: the document declares `limit` with no default), and `preload`, plants the target
 * holds before the run (ids 1…n), as a shared staging server does.
 */
export interface ResourceShape {
  readonly unaskedPage?: number;
  readonly preload?: number;
}

export function startResourceServer(kind: ResourceKind, fault?: ResourceFault, shape: ResourceShape = {}): Promise<ResourceServer> {
  const handler = kind === 'plants' ? plantStore(fault, shape) : petStore(fault, kind === 'optional');
  return listenLocally((req, res) => serve(req, res, handler));
}

interface Incoming {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Handler = (request: Incoming) => Answer;

function serve(req: IncomingMessage, res: ServerResponse, handler: Handler): void {
  readBody(req, res, Infinity, (body = Buffer.alloc(0)) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    respond(res, () =>
      handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: body.toString('utf8') }),
    );
  });
}

function isJsonType(contentType: string | undefined, fault: ResourceFault | undefined): boolean {
  if (contentType === undefined) return false;
  if (fault === 'charset-refused' && contentType.includes(';')) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The one integer a query or path parameter holds, within [min, max], or undefined. */
function anyInteger(text: string): bigint | undefined {
  return /^-?\d+$/.test(text) ? BigInt(text) : undefined;
}

function integerIn(text: string | null, min: bigint, max: bigint): bigint | undefined {
  if (text === null || !/^-?\d{1,25}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < min || value > max ? undefined : value;
}

/** The JSON object a body holds, or why it holds none. */
function readObject(body: string): Map<string, unknown> | string {
  let value;
  try {
    value = parseExactJson(body);
  } catch (error) {
    return error instanceof JsonSyntaxError ? `not JSON: ${error.message}` : 'not JSON';
  }
  return isJsonObject(value) ? (value as Map<string, unknown>) : 'body must be an object';
}

/** name (string, required), tag (string, optional): what NewPlant and NewPet share. */
function readNamed(body: string): { name: string; tag?: string; fields: Map<string, unknown> } | string {
  const change = readChange(body);
  if (typeof change === 'string') return change;
  if (change.name === undefined) return "body must have a string property 'name'";
  return change.tag === undefined ? { name: change.name, fields: change.fields } : { name: change.name, tag: change.tag, fields: change.fields };
}

/** A PATCH body: name and tag, both optional strings. */
function readChange(body: string): { name?: string; tag?: string; fields: Map<string, unknown> } | string {
  const fields = readObject(body);
  if (typeof fields === 'string') return fields;
  const name = fields.get('name');
  const tag = fields.get('tag');
  if (name !== undefined && typeof name !== 'string') return "body must have a string property 'name'";
  if (tag !== undefined && typeof tag !== 'string') return 'body/tag must be a string';
  return { ...(name === undefined ? {} : { name }), ...(tag === undefined ? {} : { tag }), fields };
}

function plantStore(fault: ResourceFault | undefined, shape: ResourceShape = {}): Handler {
  const plants = new Map<bigint, { name: string; tag?: string }>();
  for (let id = 1; id <= (shape.preload ?? 0); id += 1) plants.set(BigInt(id), { name: `staging plant ${id}` });
  const retired = new Set<bigint>();
  const error = (status: number, code: number, message: string): Answer => ({ status, body: { error: code, message } });
  return (request) => {
    const auth = request.headers.authorization ?? '';
    if (!/^Bearer \S+$/i.test(auth)) {
      const doomed = /^\/plants\/(-?\d{1,25})$/.exec(request.path);
      if (fault === 'delete-ignores-credentials' && request.method === 'DELETE' && doomed !== null) plants.delete(BigInt(doomed[1] as string));
      return error(400, 401, 'a bearer token is required');
    }
    if (request.path === '/plants' && request.method === 'GET') {
      const text = request.query.get('limit');
      // Gitea's kind of limit (unaskedPage): any integer, as its document declares it.
      const limit = text === null ? undefined : shape.unaskedPage === undefined ? integerIn(text, INT32_MIN, INT32_MAX) : anyInteger(text);
      if (text !== null && (limit === undefined || request.query.getAll('limit').length > 1)) return error(400, 400, 'limit must be an int32');
      if (fault === 'list-hides-creates') return { status: 200, body: [] };
      const all = [...plants.values()].map((plant) => (fault === 'list-mangles-names' ? { ...plant, name: mangled(plant.name) } : plant));
      const page = limit ?? (shape.unaskedPage === undefined ? undefined : BigInt(shape.unaskedPage));
      const shown = page === undefined || fault === 'limit-ignored' ? all : page <= 0n ? [] : all.slice(0, Number(page));
      return { status: 200, body: shown };
    }
    if (request.path === '/plants' && request.method === 'POST') {
      if (!isJsonType(request.headers['content-type'], fault)) return error(400, 415, 'content-type must be application/json');
      const named = readNamed(request.body);
      if (typeof named === 'string') return error(400, 400, named);
      const id = named.fields.get('id');
      if (!isJsonNumber(id as never)) return error(400, 400, "body must have an integer property 'id'");
      const exact = exactInteger((id as { raw: string }).raw);
      if (typeof exact !== 'bigint' || exact < INT64_MIN || exact > INT64_MAX) return error(400, 400, 'body/id must be an int64');
      if (fault === 'edge-id-refused' && (exact === 0n || exact === INT64_MAX || exact === INT64_MIN)) return error(400, 400, `id ${exact} is reserved`);
      if (fault === 'refuses-big-ids' && (exact > 2n ** 53n - 1n || exact < -(2n ** 53n - 1n))) return error(400, 422, 'id must be a safe integer');
      if (fault === 'negative-id-refused' && exact < 0n) return error(400, 400, 'id must not be negative');
      if (plants.has(exact) && fault === 'duplicate-overwrites')
        plants.set(exact, named.tag === undefined ? { name: named.name } : { name: named.name, tag: named.tag });
      if (plants.has(exact) || retired.has(exact)) return error(400, 409, `a plant with id ${exact} already exists`);
      const plant = named.tag === undefined ? { name: named.name } : { name: named.name, tag: named.tag };
      plants.set(exact, plant);
      return { status: 200, body: plant };
    }
    const match = /^\/plants\/([^/]+)$/.exec(request.path);
    if (match !== null && request.method === 'DELETE') {
      const id = integerIn(decodeURIComponent(match[1] as string), INT64_MIN, INT64_MAX);
      if (id === undefined) return error(400, 400, 'id must be an int64');
      if (fault !== 'delete-does-nothing') {
        if (fault === 'deleted-id-still-taken' && plants.has(id)) retired.add(id);
        plants.delete(id);
      }
      // Idempotent: deleting what is not there leaves it not there (the document declares 204 only).
      return { status: 204 };
    }
    return error(match !== null || request.path === '/plants' ? 405 : 404, 404, `no ${request.method} ${request.path}`);
  };
}

/** optionalIds: a create may give the id (kept; a taken one is refused with 409) or leave it out (the next free one). */
function petStore(fault: ResourceFault | undefined, optionalIds = false): Handler {
  const pets = new Map<bigint, { id: bigint; name: string; tag?: string }>();
  let next = 1n;
  let last = 0n;
  const error = (status: number, message: string): Answer => ({ status, body: { code: status, message } });
  return (request) => {
    if (request.path === '/pets' && request.method === 'GET') {
      const text = request.query.get('limit');
      const limit = text === null ? undefined : integerIn(text, INT32_MIN, INT32_MAX);
      if (text !== null && (limit === undefined || request.query.getAll('limit').length > 1)) return error(400, 'limit must be an int32');
      const asked = request.query.getAll('tags');
      const tags = fault === 'filter-ignored' ? [] : fault === 'filter-half-applied' ? asked.slice(0, 1) : asked;
      if (fault === 'list-hides-creates') return { status: 200, body: [] };
      const all = [...pets.values()]
        .filter((pet) => tags.length === 0 || (pet.tag !== undefined && tags.includes(pet.tag)))
        .map((pet) => (fault === 'list-mangles-names' ? { ...pet, name: mangled(pet.name) } : pet));
      const shown = limit === undefined || fault === 'limit-ignored' ? all : limit <= 0n ? [] : all.slice(0, Number(limit));
      // optional-ids.yaml declares X-Total-Count (the pets the filters keep, on every page); the other documents ignore it.
      return { status: 200, body: shown, headers: { 'x-total-count': String(fault === 'total-counts-page' ? shown.length : all.length) } };
    }
    if (request.path === '/pets' && request.method === 'POST') {
      if (!isJsonType(request.headers['content-type'], fault)) return error(400, 'content-type must be application/json');
      const named = readNamed(request.body);
      if (typeof named === 'string') return error(400, named);
      const given = optionalIds ? givenId(named.fields) : undefined;
      if (typeof given === 'string') return error(400, given);
      if (optionalIds && given === undefined && fault === 'id-less-create-refused') return error(400, "body must have an integer property 'id'");
      if (given !== undefined && pets.has(given)) return error(409, `a pet with id ${given} already exists`);
      while (pets.has(next)) next += 1n; // ids given earlier are skipped
      const id = given !== undefined && fault !== 'given-id-ignored' ? given : next;
      if (id === next) next += 1n;
      const pet = named.tag === undefined ? { id, name: named.name } : { id, name: named.name, tag: named.tag };
      if (!(fault === 'id-less-create-forgotten' && given === undefined)) pets.set(id, fault === 'create-drops-tag' ? { id, name: named.name } : pet);
      last = id;
      return { status: 200, body: pet };
    }
    const match = /^\/pets\/([^/]+)$/.exec(request.path);
    if (match !== null && (request.method === 'PUT' || request.method === 'PATCH')) {
      const id = integerIn(decodeURIComponent(match[1] as string), INT64_MIN, INT64_MAX);
      if (id === undefined) return error(400, 'id must be an int64');
      const pet = pets.get(id);
      if (pet === undefined) return error(404, `no pet ${id}`);
      if (!isJsonType(request.headers['content-type'], fault)) return error(400, 'content-type must be application/json');
      if (fault === 'update-refused' && request.method === 'PATCH') return error(400, 'pets do not change');
      const changed = request.method === 'PUT' ? readNamed(request.body) : readChange(request.body);
      if (typeof changed === 'string') return error(400, changed);
      const next = {
        id,
        name: changed.name ?? pet.name,
        ...(changed.tag !== undefined ? { tag: changed.tag } : request.method === 'PATCH' && pet.tag !== undefined ? { tag: pet.tag } : {}),
      };
      if (fault !== 'update-ignored') pets.set(id, next);
      return { status: 200, body: next };
    }
    if (match !== null && (request.method === 'GET' || request.method === 'DELETE')) {
      const id = integerIn(decodeURIComponent(match[1] as string), INT64_MIN, INT64_MAX);
      if (id === undefined) return error(400, 'id must be an int64');
      if (request.method === 'GET') {
        if (fault === 'read-ignores-store') return { status: 200, body: { id, name: 'Rex' } };
        const asked = pets.get(id);
        const pet = fault === 'read-finds-nothing' ? undefined : fault === 'read-returns-another' && asked !== undefined ? (pets.get(last) ?? asked) : asked;
        // optional-ids.yaml declares X-Rate-Limit (an int32 from 0) on this answer; the other documents ignore it.
        const rateLimit = fault === 'rate-limit-not-a-number' ? 'lots' : '99';
        return pet === undefined ? error(404, `no pet ${id}`) : { status: 200, body: pet, headers: { 'x-rate-limit': rateLimit } };
      }
      if (!pets.has(id)) return error(404, `no pet ${id}`);
      if (fault !== 'delete-does-nothing') pets.delete(id);
      if (fault === 'reuses-deleted-ids' && id > 0n && id < next) next = id;
      return { status: 204 };
    }
    return error(404, `no ${request.method} ${request.path}`);
  };
}

/** The int64 id a create body gives, undefined when it gives none, or what is wrong with it. */
function givenId(fields: Map<string, unknown>): bigint | string | undefined {
  if (!fields.has('id')) return undefined;
  const id = fields.get('id');
  const exact = isJsonNumber(id as never) ? exactInteger((id as { raw: string }).raw) : undefined;
  return typeof exact === 'bigint' && exact >= INT64_MIN && exact <= INT64_MAX ? exact : 'body/id must be an int64';
}

/** A name as a server with a charset bug writes it: every character outside printable ASCII as "?". */
function mangled(name: string): string {
  return name.replace(/[^\x20-\x7e]/gu, '?');
}
