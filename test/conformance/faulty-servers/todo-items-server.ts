/**
 * The TodoItems API of Microsoft's ASP.NET Core web API tutorial (test/fixtures/documents/todo-items.yaml),
 * correct by its document, and with one fault: a PUT names its item twice, in the path and in the
 * body (id included), and is refused with 400 when they differ.
 */
import { listenLocally, readBody, respond, type Answer, type LocalServer } from './http-double.js';
import { exactInteger, isJsonNumber, isJsonObject, JsonSyntaxError, parseExactJson, type JsonValue } from './exact-json.js';

export const TODO_FAULTS = {
  'put-id-unchecked': 'a PUT takes a body id above the int64 maximum (or below its minimum) as long as the path names a stored item',
} as const;

export type TodoFault = keyof typeof TODO_FAULTS;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const PROBLEM = { 'content-type': 'application/problem+json' };

interface TodoItem {
  readonly id: bigint;
  readonly name?: string | null;
  readonly isComplete?: boolean;
}

export function startTodoServer(fault?: TodoFault): Promise<LocalServer> {
  const items = new Map<bigint, TodoItem>();
  let next = 1n;
  const problem = (status: number, detail: string): Answer => ({
    status,
    headers: PROBLEM,
    body: { title: status === 404 ? 'Not Found' : 'Bad Request', status, detail },
  });
  const handle = (method: string, path: string, contentType: string | undefined, body: string): Answer => {
    if (path === '/api/TodoItems' && method === 'GET') return { status: 200, body: [...items.values()] };
    if (path === '/api/TodoItems' && method === 'POST') {
      const read = readItem(body, contentType, fault, false);
      if (typeof read === 'string') return problem(400, read);
      while (items.has(next)) next += 1n;
      const id = read.id ?? next;
      if (items.has(id)) return problem(400, `an item with id ${id} already exists`);
      const item = { ...read.fields, id };
      items.set(id, item);
      return { status: 201, body: item, headers: { location: `/api/TodoItems/${id}` } };
    }
    const match = /^\/api\/TodoItems\/([^/]+)$/.exec(path);
    if (match === null) return problem(404, `no ${method} ${path}`);
    const id = int64(decodeURIComponent(match[1] as string));
    if (id === undefined) return problem(400, `The value '${match[1]}' is not valid.`);
    if (method === 'GET') return items.has(id) ? { status: 200, body: items.get(id) } : problem(404, `no item ${id}`);
    if (method === 'DELETE') return items.delete(id) ? { status: 204 } : problem(404, `no item ${id}`);
    if (method !== 'PUT') return problem(404, `no ${method} ${path}`);
    const read = readItem(body, contentType, fault, true);
    if (typeof read === 'string') return problem(400, read);
    // The tutorial's own rule: the body's item is the path's.
    if (read.id !== undefined && read.id !== id && !(fault === 'put-id-unchecked' && read.outOfRange)) return problem(400, 'the body id is not the path id');
    if (!items.has(id)) return problem(404, `no item ${id}`);
    items.set(id, { ...read.fields, id });
    return { status: 204 };
  };
  return listenLocally((req, res) =>
    readBody(req, res, Infinity, (body = Buffer.alloc(0)) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      respond(res, () => handle(req.method ?? 'GET', url.pathname, req.headers['content-type'], body.toString('utf8')));
    }),
  );
}

function int64(text: string): bigint | undefined {
  if (!/^-?\d{1,25}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

/** A TodoItem body (every property optional, no others), or what is wrong with it. */
function readItem(
  body: string,
  contentType: string | undefined,
  fault: TodoFault | undefined,
  put: boolean,
): { readonly id?: bigint; readonly outOfRange?: true; readonly fields: Omit<TodoItem, 'id'> } | string {
  // The document does not require a body: none is an item with no properties given.
  if (body === '') return { fields: {} };
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return 'the content type must be application/json';
  let value: JsonValue;
  try {
    value = parseExactJson(body);
  } catch (error) {
    return error instanceof JsonSyntaxError ? `not JSON: ${error.message}` : 'not JSON';
  }
  if (!isJsonObject(value)) return 'the body must be a TodoItem object';
  let id: bigint | undefined;
  let outOfRange: true | undefined;
  const fields: { name?: string | null; isComplete?: boolean } = {};
  for (const [key, field] of value) {
    if (key === 'id') {
      const exact = isJsonNumber(field) ? exactInteger(field.raw) : undefined;
      if (typeof exact !== 'bigint') return 'id must be an integer';
      if (exact < INT64_MIN || exact > INT64_MAX) {
        if (!(put && fault === 'put-id-unchecked')) return 'id must be an int64';
        outOfRange = true;
      }
      id = exact;
    } else if (key === 'name') {
      if (field !== null && typeof field !== 'string') return 'name must be a string or null';
      fields.name = field;
    } else if (key === 'isComplete') {
      if (typeof field !== 'boolean') return 'isComplete must be a boolean';
      fields.isComplete = field;
    } else return `unknown property ${JSON.stringify(key)}`;
  }
  return { ...(id === undefined ? {} : { id }), ...(outOfRange ? { outOfRange } : {}), fields };
}
