// The create form's body: what to propose for a new item of a resource, and what to send for what
// was typed. Only what a client sends: the id the server assigns and the fields it makes are left out
// (and an id is given on Create, as the control API's seed wants one); inside the resource's envelope.

/** A fresh id for the example: one past the largest integer id shown, exact beyond 2^53. */
function nextId(items, idField) {
  const ids = items.map((item) => item[idField]).filter((id) => typeof id === 'bigint' || Number.isInteger(id));
  return ids.length === 0 ? undefined : ids.map(BigInt).reduce((max, id) => (id > max ? id : max)) + 1n;
}

/** An id the new item can take: the next integer (from the smallest the identifier allows), a fresh uuid; none for a free string. */
function freshId(resource, items) {
  const { kind, minimum } = resource.idType;
  if (kind === 'integer') {
    const next = nextId(items, resource.idField) ?? (minimum !== undefined && BigInt(minimum) > 1n ? BigInt(minimum) : 1n);
    return Number.isSafeInteger(Number(next)) ? Number(next) : next;
  }
  if (kind === 'uuid' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return undefined;
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The server assigns the id: the form does not propose one (readOnly, or the document has no way to send it). */
const serverAssigned = (resource) => resource.assignedBy === 'server';

/** The properties the server makes (the model's serverFields, when the stand-in reports them). */
const serverMade = (resource) => new Set((resource.serverFields ?? []).map((field) => field.property).filter((name) => name !== resource.idField));

/**
 * The item inside the resource's envelope ({"ticket": {...}} → {...}), when the model names one and
 * `body` is that envelope; else `body` as it is (no envelope, or already the item).
 */
export function inside(resource, body) {
  const wrapper = resource.envelope?.request;
  if (typeof wrapper !== 'string' || !isObject(body)) return body;
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === wrapper && isObject(body[wrapper]) ? body[wrapper] : body;
}

/** The create form's start: the document's example (or one built from its schema), else the last item's shape. */
export function proposal(resource, items) {
  const base = resource.example === undefined ? items.at(-1) : inside(resource, resource.example);
  const example = isObject(base) ? { ...base } : {};
  for (const name of serverMade(resource)) delete example[name];
  if (serverAssigned(resource)) {
    delete example[resource.idField];
    return example;
  }
  const id = freshId(resource, items);
  // An id the example brings is replaced only by one past those stored (a client-assigned example id may be free).
  if (id !== undefined && (!(resource.idField in example) || nextId(items, resource.idField) !== undefined)) example[resource.idField] = id;
  return example;
}

/** What Create sends for the typed body: the item inside its envelope, with an id when the server would assign one. */
export function toSend(resource, body, items) {
  const item = inside(resource, body);
  if (!isObject(item) || resource.idField in item || resource.assignedBy === 'client') return item;
  const id = freshId(resource, items) ?? (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined);
  return id === undefined ? item : { [resource.idField]: id, ...item };
}

const SOURCES = {
  document: 'the document’s example',
  generated: 'built from the document’s schema: its example values where it gives them, else minimal ones',
};

/** The form's label: where the proposal came from, and that it is the item inside an envelope. */
export function labelOf(resource) {
  const parts = [SOURCES[resource.exampleSource], resource.envelope?.request ? `the item inside {"${resource.envelope.request}": …}` : undefined];
  const said = parts.filter(Boolean);
  return said.length === 0 ? 'New item (JSON)' : `New item (JSON; ${said.join('; ')})`;
}

/** Under the form: what the stand-in makes itself, so the form leaves it out. */
export function noteOf(resource) {
  const notes = [];
  if (serverAssigned(resource)) notes.push(`The stand-in assigns ${resource.idField} on Create.`);
  const made = [...serverMade(resource)];
  if (made.length > 0) notes.push(`It makes ${made.join(', ')} itself.`);
  return notes.join(' ');
}
