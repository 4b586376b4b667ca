/**
 * A small Plant Store on node:http, correct by default, that can be told to
 * misbehave in one named way. The conformance suite must pass the correct
 * double without a warning and must fail every faulty one under the right check.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exactInteger, isJsonNumber, isJsonObject, JsonSyntaxError, parseExactJson, type JsonObject } from './exact-json.js';
import { FORGETFUL_CAPACITY, type FaultName } from './faults.js';
import { listenLocally, readBody } from './http-double.js';

export type { FaultName } from './faults.js';
export { FAULTS, FAULT_NAMES } from './faults.js';

export interface PlantStoreDouble {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  readonly fault: FaultName | undefined;
  close(): Promise<void>;
}

/** What the double does with one request. */
type Outcome =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'drop' };

interface IncomingPlantRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/** Bodies beyond this are refused unread-in-full; no generated plant comes close. */
const MAX_BODY_BYTES = 1 << 20;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_SPAN = 2 ** 32;

const JSON_TYPE = 'application/json; charset=utf-8';

export async function startPlantStoreDouble(fault?: FaultName): Promise<PlantStoreDouble> {
  const store = createIdStore(fault);
  // A hanging fault keeps sockets open; close() still returns promptly.
  const server = await listenLocally((req, res) => handle(req, res, store, fault));
  return { ...server, fault };
}

function handle(req: IncomingMessage, res: ServerResponse, store: IdStore, fault: FaultName | undefined): void {
  readBody(req, res, MAX_BODY_BYTES, (body) => {
    let outcome: Outcome;
    try {
      outcome =
        body === undefined
          ? errorAnswer(400, 400, `the body is larger than ${MAX_BODY_BYTES} bytes`, fault)
          : decide(
              {
                method: req.method ?? 'GET',
                path: (req.url ?? '/').split('?')[0] ?? '/',
                authorization: req.headers.authorization,
                contentType: req.headers['content-type'],
                body,
              },
              store,
              fault,
            );
    } catch (error) {
      // A bug in the double itself: answer 500 so that it shows, rather than crash.
      outcome = { kind: 'answer', status: 500, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ error: 500, message: String(error) }) };
    }
    if (outcome.kind === 'hang') return;
    if (outcome.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(outcome.status, { ...outcome.headers, 'content-length': Buffer.byteLength(outcome.body) });
    res.end(outcome.body);
  });
}

function decide(request: IncomingPlantRequest, store: IdStore, fault: FaultName | undefined): Outcome {
  if (request.path !== '/plants') return errorAnswer(404, 404, `no such path: ${request.path}`, fault);
  if (request.method !== 'POST') {
    const answer = errorAnswer(405, 405, `${request.method} is not allowed on /plants`, fault);
    return { ...answer, headers: { ...answer.headers, allow: 'POST' } };
  }
  if (fault === 'drops-connection-on-empty-body' && request.body.length === 0) return { kind: 'drop' };

  const authProblem = fault === 'accepts-without-token' ? undefined : bearerProblem(request.authorization, fault);
  if (authProblem !== undefined) {
    const answer = errorAnswer(fault === 'answers-401-for-missing-token' ? 401 : 400, 401, authProblem, fault);
    return { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer' } };
  }

  if (!isJsonMediaType(request.contentType)) {
    return errorAnswer(400, 400, `content-type must be application/json, not ${request.contentType ?? '(none)'}`, fault);
  }
  if (request.body.length === 0) return errorAnswer(400, 400, 'the body is empty; a NewPlant is required', fault);

  let document;
  try {
    document = parseExactJson(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
  } catch (error) {
    if (fault === 'hangs-on-malformed-json') return { kind: 'hang' };
    const reason = error instanceof JsonSyntaxError ? error.message : 'the body is not valid UTF-8';
    return errorAnswer(400, 400, `the body is not JSON: ${reason}`, fault);
  }

  const plant = readNewPlant(document, fault);
  if (typeof plant === 'string') {
    const status = fault === 'answers-422-for-schema-violations' ? 422 : 400;
    return errorAnswer(status, status, plant, fault);
  }
  if (fault === '500-on-non-ascii-name' && /[^\x00-\x7f]/.test(plant.name)) {
    return { kind: 'answer', status: 500, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify({ error: 500, message: 'cannot encode name' }) };
  }
  if (plant.id !== undefined && !store.add(plant.id)) {
    return errorAnswer(400, 409, `a plant with id ${plant.id} already exists`, fault);
  }
  return created(plant, fault);
}

interface NewPlant {
  readonly name: string;
  readonly tag?: string;
  /** Exact; undefined only when a fault lets a body without id through. */
  readonly id?: bigint | undefined;
}

/** The NewPlant schema (allOf Plant + required int64 id; other properties allowed), or why not. */
function readNewPlant(document: ReturnType<typeof parseExactJson>, fault: FaultName | undefined): NewPlant | string {
  if (!isJsonObject(document)) return 'body must be an object';
  const name = document.get('name');
  if (name === undefined) return "body must have required property 'name'";
  if (typeof name !== 'string') return 'body/name must be a string';
  if (fault === 'rejects-empty-name' && name === '') return 'body/name must not be empty';
  const tag = document.get('tag');
  if (tag !== undefined && typeof tag !== 'string') return 'body/tag must be a string';
  if (fault === 'rejects-extra-properties') {
    const extra = [...document.keys()].find((key) => key !== 'name' && key !== 'tag' && key !== 'id');
    if (extra !== undefined) return `body must not have property ${JSON.stringify(extra)}`;
  }
  const id = readId(document, fault);
  if (typeof id === 'string') return id;
  return tag === undefined ? { name, id } : { name, tag, id };
}

function readId(document: JsonObject, fault: FaultName | undefined): bigint | undefined | string {
  const id = document.get('id');
  if (id === undefined) return fault === 'accepts-missing-id' ? undefined : "body must have required property 'id'";
  if (!isJsonNumber(id)) return 'body/id must be an integer';
  const value = exactInteger(id.raw);
  if (value === 'fraction') {
    const rounded = Math.floor(Number(id.raw));
    if (fault === 'accepts-fractional-id' && Number.isFinite(rounded)) return BigInt(rounded);
    return 'body/id must be an integer';
  }
  // Beyond int64 the faulty store accepts the plant; too huge to key, it is simply not stored.
  if (fault === 'accepts-id-beyond-int64') return value === 'huge' ? undefined : value;
  if (value === 'huge' || value < INT64_MIN || value > INT64_MAX) return 'body/id must be an int64 (between -2^63 and 2^63-1)';
  return value;
}

function created(plant: NewPlant, fault: FaultName | undefined): Outcome {
  const name = fault === 'constant-name' ? 'string' : plant.name;
  const body = plant.tag === undefined || fault === 'omits-tag' ? { name } : { name, tag: plant.tag };
  return {
    kind: 'answer',
    status: fault === 'answers-201' ? 201 : 200,
    headers: { 'content-type': fault === 'text-plain-success' ? 'text/plain; charset=utf-8' : JSON_TYPE },
    body: JSON.stringify(body),
  };
}

function errorAnswer(status: number, code: number, message: string, fault: FaultName | undefined): Outcome & { kind: 'answer' } {
  const error = fault === 'string-error-code' ? String(code) : fault === 'error-code-beyond-int32' ? code + INT32_SPAN : code;
  const body = fault === 'error-without-message' ? { error } : { error, message };
  return {
    kind: 'answer',
    status,
    headers: { 'content-type': fault === 'text-plain-errors' ? 'text/plain; charset=utf-8' : JSON_TYPE },
    body: JSON.stringify(body),
  };
}

/** Why the Authorization header does not carry a bearer token, or undefined when it does. */
function bearerProblem(header: string | undefined, fault: FaultName | undefined): string | undefined {
  if (header === undefined || header.trim() === '') return 'a bearer token is required (Authorization: Bearer <token>)';
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  const scheme = match?.[1] ?? '';
  const credential = (match?.[2] ?? '').trim();
  const isBearer = scheme.toLowerCase() === 'bearer';
  if (fault === 'accepts-empty-bearer-token' && isBearer) return undefined;
  if (fault === 'accepts-any-auth-scheme' && credential !== '') return undefined;
  if (!isBearer) return `the Authorization scheme must be Bearer, not ${scheme}`;
  if (credential === '' || /\s/.test(credential)) return 'the bearer token is empty or malformed';
  return undefined;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

interface IdStore {
  /** False when the id is already taken. */
  add(id: bigint): boolean;
}

function createIdStore(fault: FaultName | undefined): IdStore {
  if (fault === 'accepts-duplicate-ids') return { add: () => true };
  if (fault === 'forgets-plants') {
    const recent: bigint[] = [];
    return {
      add(id) {
        if (recent.includes(id)) return false;
        recent.push(id);
        if (recent.length > FORGETFUL_CAPACITY) recent.shift();
        return true;
      },
    };
  }
  // The precision fault keys by the nearest double, as a store using JS numbers would.
  const key = fault === 'loses-int64-precision' ? (id: bigint) => String(Number(id)) : (id: bigint) => id.toString();
  const ids = new Set<string>();
  return {
    add(id) {
      const k = key(id);
      if (ids.has(k)) return false;
      ids.add(k);
      return true;
    },
  };
}
