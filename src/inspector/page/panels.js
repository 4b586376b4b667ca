// The stored resources (per resource and tenant) and the faults in force, each with its actions.
import { call, listResources, parseExact, reasonOf, toJson } from './api.js';
import { el } from './journal.js';

const cell = (value) => el('td', { textContent: typeof value === 'string' ? value : toJson(value) });

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

/** The create form's start: the document's example (or one built from its schema), else the last item's shape; with a fresh id. */
function proposal(resource, items) {
  const base = resource.example ?? items.at(-1);
  const example = base && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  const id = freshId(resource, items);
  // An id the example brings is replaced only by one past those stored (a client-assigned example id may be free).
  if (id !== undefined && (!(resource.idField in example) || nextId(items, resource.idField) !== undefined)) example[resource.idField] = id;
  return example;
}

const SOURCES = {
  document: 'New item (JSON; the document’s example)',
  generated: 'New item (JSON; a minimal body built from the document’s schema)',
};

export function resourcesPanel(root) {
  const select = root.querySelector('#resource');
  const parentInputs = root.querySelector('#parents');
  const tenant = root.querySelector('#tenant-token');
  const table = root.querySelector('#items');
  const newItem = root.querySelector('#new-item');
  const newItemLabel = root.querySelector('label[for="new-item"]');
  const status = root.querySelector('#resources-status');
  let resources = [];
  let edited = false;
  newItem.addEventListener('input', () => (edited = true));
  const current = () => resources.find((resource) => resource.name === select.value) ?? resources[0];
  const say = (text) => (status.textContent = text);
  /** The parent parameters' values typed for the current resource: { ownerId: '7' }. */
  const parents = () => Object.fromEntries([...parentInputs.querySelectorAll('input')].map((input) => [input.name, input.value.trim()]));
  const missingParents = (resource) => resource.parents.filter((name) => !parents()[name]);

  /** One labelled input per parent parameter of a nested resource (none for a top-level one). */
  function showParents(resource) {
    parentInputs.replaceChildren(
      ...resource.parents.map((name) => {
        const input = el('input', { name, type: 'text', autocomplete: 'off', size: 12 });
        input.addEventListener('change', () => void refresh());
        return el('label', {}, `${name} `, input);
      }),
    );
  }

  async function refresh() {
    const resource = current();
    if (!resource) return;
    const missing = missingParents(resource);
    if (missing.length > 0) {
      render(resource, []);
      table.querySelector('caption').textContent = `${resource.name}: give ${missing.join(' and ')} to list the items of one parent`;
      return;
    }
    const reply = await resource.list(parents(), tenant.value);
    if (reply.status !== 200 || !Array.isArray(reply.json)) return say(`Could not list ${resource.name}: ${reasonOf(reply)}`);
    render(resource, reply.json);
  }

  function render(resource, items) {
    const columns = [...new Set([resource.idField, ...items.flatMap((item) => Object.keys(item))])];
    const of = resource.parents.map((name) => `${name} ${parents()[name]}`).join(', ');
    table.querySelector('caption').textContent =
      `${resource.name}${of ? ` of ${of}` : ''} (${items.length})${tenant.value ? ' of the tenant of the token given' : ''}`;
    table.tHead.replaceChildren(
      el('tr', {}, ...columns.map((name) => el('th', { scope: 'col', textContent: name })), el('th', { scope: 'col', textContent: 'Actions' })),
    );
    table.tBodies[0].replaceChildren(
      ...items.map((item) => {
        const id = item[resource.idField];
        const remove = el('button', { type: 'button', textContent: 'Delete' });
        remove.setAttribute('aria-label', `Delete ${resource.name} ${toJson(id)}`);
        remove.addEventListener('click', () => act(resource.remove(id, parents(), tenant.value), `Deleted ${toJson(id)}`));
        return el('tr', {}, ...columns.map((name) => (item[name] === undefined ? el('td') : cell(item[name]))), el('td', {}, remove));
      }),
    );
    if (!edited) {
      newItemLabel.textContent = SOURCES[resource.exampleSource] ?? 'New item (JSON)';
      newItem.value = toJson(proposal(resource, items), 2);
    }
  }

  async function act(reply, done) {
    const answer = await reply;
    if (answer.status >= 400) say(reasonOf(answer));
    else if (answer.json && Array.isArray(answer.json.duplicates) && answer.json.duplicates.length > 0)
      say(`Not stored: an item with id ${answer.json.duplicates.map((id) => toJson(id)).join(', ')} exists already`);
    else say(done);
    await refresh();
  }

  /** Runs `action` on the current resource once its parents are given; else says which are missing. */
  function withParents(action) {
    const resource = current();
    const missing = missingParents(resource);
    if (missing.length > 0) return say(`${resource.name} is nested: give ${missing.join(' and ')} first`);
    action(resource);
  }

  root.querySelector('#create-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let item;
    try {
      item = parseExact(newItem.value);
    } catch (error) {
      return say(`The new item is not JSON: ${error.message}`);
    }
    withParents((resource) => {
      edited = false;
      void act(resource.create(item, parents(), tenant.value), `Created ${resource.name}`);
    });
  });
  root
    .querySelector('#reset')
    .addEventListener('click', () => withParents((resource) => void act(resource.reset(parents(), tenant.value), `Reset ${resource.name}`)));
  root.querySelector('#refresh').addEventListener('click', () => void refresh());
  // Enter in a parent's field lists that parent's items (the form is never sent anywhere).
  root.querySelector('#resource-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void refresh();
  });
  select.addEventListener('change', () => {
    edited = false;
    showParents(current());
    void refresh();
  });
  tenant.addEventListener('change', () => void refresh());

  return {
    async load() {
      resources = await listResources();
      select.replaceChildren(...resources.map((resource) => el('option', { value: resource.name, textContent: resource.name })));
      showParents(current());
      await refresh();
    },
    refresh,
  };
}

export function faultsPanel(root) {
  const table = root.querySelector('#fault-list');
  const status = root.querySelector('#faults-status');
  const say = (text) => (status.textContent = text);

  async function refresh() {
    const reply = await call('GET', '/__control/faults');
    if (reply.status !== 200 || !Array.isArray(reply.json)) return say(`Could not list the faults: ${reasonOf(reply)}`);
    table.tBodies[0].replaceChildren(
      ...reply.json.map(({ id, kind, operation, hits, ...settings }) => {
        const remove = el('button', { type: 'button', textContent: 'Remove' });
        remove.setAttribute('aria-label', `Remove fault ${id}`);
        remove.addEventListener('click', () => act(call('DELETE', `/__control/faults/${encodeURIComponent(id)}`), `Removed fault ${id}`));
        return el('tr', {}, cell(id), cell(kind), cell(operation ?? 'every operation'), cell(toJson(settings)), cell(String(hits)), el('td', {}, remove));
      }),
    );
  }

  async function act(reply, done) {
    const answer = await reply;
    say(answer.status >= 400 ? reasonOf(answer) : done);
    await refresh();
  }

  root.querySelector('#fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void act(call('POST', '/__control/faults', { body: root.querySelector('#new-fault').value }), 'Fault added');
  });
  root.querySelector('#clear-faults').addEventListener('click', () => void act(call('DELETE', '/__control/faults'), 'All faults removed'));
  return { load: refresh, refresh };
}
