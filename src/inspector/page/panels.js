// The stored resources (per resource and tenant) and the faults in force, each with its actions.
import { call, listResources, parseExact, reasonOf, toJson } from './api.js';
import { el } from './journal.js';
import { labelOf, noteOf, proposal, toSend } from './proposal.js';

/** Longer values are cut in a cell, whole in its title: one long text must not stretch the table a page tall. */
const CELL_CHARACTERS = 120;

function cell(value) {
  const text = typeof value === 'string' ? value : toJson(value);
  if (text.length <= CELL_CHARACTERS) return el('td', { textContent: text });
  return el('td', { textContent: `${text.slice(0, CELL_CHARACTERS)}…`, title: text });
}

const NO_RESOURCES = 'No stored resources: the stand-in found none in this document, so every operation is answered by the mocker.';

export function resourcesPanel(root) {
  const select = root.querySelector('#resource');
  const parentInputs = root.querySelector('#parents');
  const tenant = root.querySelector('#tenant-token');
  const table = root.querySelector('#items');
  const newItem = root.querySelector('#new-item');
  const newItemLabel = root.querySelector('label[for="new-item"]');
  const newItemNote = root.querySelector('#new-item-note');
  const status = root.querySelector('#resources-status');
  let resources = [];
  /** The items last listed: a fresh id for Create is one past theirs. */
  let shown = [];
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
    shown = items;
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
    newItemNote.textContent = noteOf(resource);
    if (!edited) {
      newItemLabel.textContent = labelOf(resource);
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
    if (!resource) return say(NO_RESOURCES);
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
      void act(resource.create(toSend(resource, item, shown), parents(), tenant.value), `Created ${resource.name}`);
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
      const listed = await listResources();
      resources = Array.isArray(listed) ? listed : [];
      // Nothing to list, create or reset: the actions are off, and the status says why.
      for (const control of root.querySelectorAll('button, select, textarea, input')) control.disabled = resources.length === 0;
      if (resources.length === 0) {
        table.querySelector('caption').textContent = 'Items';
        table.tHead.replaceChildren();
        table.tBodies[0].replaceChildren();
        return say(Array.isArray(listed) ? NO_RESOURCES : `Could not read the resources: ${listed.problem}`);
      }
      say('');
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
    // An empty table says nothing by itself: its caption does.
    table.caption.textContent = reply.json.length === 0 ? 'None in force' : 'In force';
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
