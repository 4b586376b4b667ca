// The stored resources (per resource and tenant) and the faults in force, each with its actions.
import { call, listResources, parseExact, reasonOf, toJson } from './api.js';
import { el } from './journal.js';

const cell = (value) => el('td', { textContent: typeof value === 'string' ? value : toJson(value) });

/** A fresh id for the example: one past the largest integer id shown, exact beyond 2^53. */
function nextId(items, idField) {
  const ids = items.map((item) => item[idField]).filter((id) => typeof id === 'bigint' || Number.isInteger(id));
  return ids.length === 0 ? undefined : ids.map(BigInt).reduce((max, id) => (id > max ? id : max)) + 1n;
}

export function resourcesPanel(root) {
  const select = root.querySelector('#resource');
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

  async function refresh() {
    const resource = current();
    if (!resource) return;
    const reply = await resource.list(tenant.value);
    if (reply.status !== 200 || !Array.isArray(reply.json)) return say(`Could not list ${resource.name}: ${reasonOf(reply)}`);
    render(resource, reply.json);
  }

  function render(resource, items) {
    const columns = [...new Set([resource.idField, ...items.flatMap((item) => Object.keys(item))])];
    table.querySelector('caption').textContent = `${resource.name} (${items.length})${tenant.value ? ' of the tenant of the token given' : ''}`;
    table.tHead.replaceChildren(
      el('tr', {}, ...columns.map((name) => el('th', { scope: 'col', textContent: name })), el('th', { scope: 'col', textContent: 'Actions' })),
    );
    table.tBodies[0].replaceChildren(
      ...items.map((item) => {
        const id = item[resource.idField];
        const remove = el('button', { type: 'button', textContent: 'Delete' });
        remove.setAttribute('aria-label', `Delete ${resource.name} ${toJson(id)}`);
        remove.addEventListener('click', () => act(resource.remove(id, tenant.value), `Deleted ${toJson(id)}`));
        return el('tr', {}, ...columns.map((name) => (item[name] === undefined ? el('td') : cell(item[name]))), el('td', {}, remove));
      }),
    );
    if (!edited) {
      // The document's example when the stand-in names one; else the last item's shape.
      const base = resource.example ?? items.at(-1);
      const example = base && typeof base === 'object' ? { ...base } : {};
      newItemLabel.textContent = resource.example ? 'New item (JSON; the document’s example)' : 'New item (JSON)';
      const id = nextId(items, resource.idField);
      if (id !== undefined && resource.idField in example) example[resource.idField] = id;
      newItem.value = toJson(example, 2);
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

  root.querySelector('#create-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let item;
    try {
      item = parseExact(newItem.value);
    } catch (error) {
      return say(`The new item is not JSON: ${error.message}`);
    }
    edited = false;
    void act(current().create(item, tenant.value), `Created ${current().name}`);
  });
  root.querySelector('#reset').addEventListener('click', () => void act(current().reset(tenant.value), `Reset ${current().name}`));
  root.querySelector('#refresh').addEventListener('click', () => void refresh());
  select.addEventListener('change', () => {
    edited = false;
    void refresh();
  });
  tenant.addEventListener('change', () => void refresh());

  return {
    async load() {
      resources = await listResources();
      select.replaceChildren(...resources.map((resource) => el('option', { value: resource.name, textContent: resource.name })));
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
