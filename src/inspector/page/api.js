// The control API as the page uses it: the admin token (sessionStorage, never the URL), exact JSON,
// the live journal stream and the resource endpoints, each in one place.

const TOKEN_KEY = 'plantstore-admin-token';
const tokenWaiters = [];

export const adminToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY) ?? '',
  set(token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    tokenWaiters.splice(0).forEach((resolve) => resolve());
  },
  forget: () => sessionStorage.removeItem(TOKEN_KEY),
  /** Resolves when a new token is set. */
  changed: () => new Promise((resolve) => tokenWaiters.push(resolve)),
};

/** Called with true when the control API asks for the token, false when a call got through. */
let onNeedToken = () => {};
export function whenTokenNeeded(listener) {
  onNeedToken = listener;
}

function headers(extra = {}) {
  const token = adminToken.get();
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

/** JSON.parse that keeps integers beyond 2^53 exact (as BigInt), using the parser's source text. */
export function parseExact(text) {
  return JSON.parse(text, (_key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value,
  );
}

/** JSON text with BigInts written as their digits. */
export function toJson(value, space) {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? JSON.rawJSON(String(item)) : item), space);
}

/** One control request: { status, text, json }, json undefined when the body is not JSON. */
export async function call(method, path, { body, tenantToken } = {}) {
  const extra = body === undefined ? {} : { 'content-type': 'application/json' };
  if (tenantToken) extra['plantstore-token'] = tenantToken;
  const response = await fetch(path, { method, headers: headers(extra), body, cache: 'no-store' });
  const text = await response.text();
  onNeedToken(response.status === 401);
  let json;
  try {
    json = text ? parseExact(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The reason a refused control call gives, for a status line. */
export function reasonOf(reply) {
  const body = reply.json;
  return body && typeof body.message === 'string' ? `error ${body.error}: ${body.message}` : `HTTP ${reply.status}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows GET /__control/journal/events with fetch (EventSource cannot send the token): onStart
 * before each connection's backlog, onEntry per entry, onState with 'live', 'token' or a problem.
 * Reconnects after a drop; the backlog then replaces what was shown.
 */
export async function followJournal({ onStart, onEntry, onState }) {
  for (;;) {
    try {
      const response = await fetch('/__control/journal/events', { headers: headers(), cache: 'no-store' });
      if (response.status === 401) {
        onNeedToken(true);
        onState('token');
        await adminToken.changed();
        continue;
      }
      if (!response.ok || !response.body) throw new Error(`the journal stream answered ${response.status}`);
      onNeedToken(false);
      onStart();
      onState('live');
      // A `dropped` event: this page fell behind (--journal-stream-bytes) and the stand-in ended the stream.
      let ended = 'the stand-in closed the stream';
      await readEvents(response.body, (event) => {
        if (event.type === 'entry') onEntry(parseExact(event.data));
        else if (event.type === 'dropped') ended = `the stand-in ended the stream: ${JSON.parse(event.data).reason}`;
      });
      onState(`${ended}; reconnecting…`);
    } catch (error) {
      onState(`${error instanceof Error ? error.message : error}; reconnecting…`);
    }
    await sleep(2000);
  }
}

/** Server-sent events from a byte stream (the event format of the HTML standard, the parts we send). */
async function readEvents(stream, onEvent) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = { type: 'message', data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const field = line.slice(0, colon);
        const text = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.type = text;
        else if (field === 'data') event.data += text;
      }
      if (event.data) onEvent(event);
    }
  }
}

/**
 * The stored resources: those of GET /__control/resources ({ resources: [...] }, the inferred
 * model), through their /__control/resources/{name}/items endpoints; [] for a document with none,
 * or { problem } when the control API would not say. Each: { name, idField, idType, assignedBy,
 * parents, envelope, serverFields, example, exampleSource, list, create, remove, reset }. A nested
 * resource's `parents` are the parameters that choose its parent ({ ownerId: '7' } for owners.pets);
 * every call takes their values.
 */
export async function listResources() {
  const reply = await call('GET', '/__control/resources');
  if (reply.status !== 200 || !reply.json || !Array.isArray(reply.json.resources)) return { problem: reasonOf(reply) };
  return reply.json.resources.map(resourceClient);
}

/** `?ownerId=7&…`: the parent parameters, in the model's order. */
function parentQuery(names, values) {
  const query = new URLSearchParams(names.map((name) => [name, values[name] ?? '']));
  return names.length === 0 ? '' : `?${query}`;
}

function resourceClient(resource) {
  const name = resource.name;
  const items = `/__control/resources/${encodeURIComponent(name)}/items`;
  const parents = resource.parentParameters ?? [];
  const at = (path, values) => `${path}${parentQuery(parents, values)}`;
  return {
    name,
    idField: resource.identifier?.property ?? 'id',
    idType: resource.identifier?.type ?? { kind: 'string' },
    assignedBy: resource.identifier?.assignedBy ?? 'either',
    parents,
    // Reported by stand-ins that infer them; absent, the bodies are the item and the client sends every field.
    envelope: resource.envelope,
    serverFields: resource.serverFields,
    example: resource.example,
    exampleSource: resource.exampleSource,
    list: (values, tenantToken) => call('GET', at(items, values), { tenantToken }),
    create: (item, values, tenantToken) => call('POST', at(items, values), { body: toJson([item]), tenantToken }),
    remove: (id, values, tenantToken) => call('DELETE', at(`${items}/${encodeURIComponent(String(id))}`, values), { tenantToken }),
    reset: (values, tenantToken) => call('DELETE', at(items, values), { tenantToken }),
  };
}
