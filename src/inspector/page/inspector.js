// The inspector page: asks for the admin token when the control API wants it, follows the journal
// live, and keeps the resources and faults panels current as requests arrive.
import { adminToken, call, followJournal, reasonOf, whenTokenNeeded } from './api.js';
import { journalView } from './journal.js';
import { faultsPanel, resourcesPanel } from './panels.js';

const $ = (selector) => document.querySelector(selector);
/** `1 item`, `3 items`: the document's resources may be anything, so the header speaks of items. */
const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

const tokenSection = $('#token');
whenTokenNeeded((needed) => {
  if (needed === !tokenSection.hidden) return;
  tokenSection.hidden = !needed;
  if (needed) {
    $('#token-problem').textContent = adminToken.get() ? 'The control API refused the token this tab holds; enter it again.' : '';
    $('#token-input').focus();
  }
});
$('#token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#token-input');
  adminToken.set(input.value.trim());
  input.value = '';
  void loadAll();
});

const resources = resourcesPanel($('#resources'));
const faults = faultsPanel($('#faults'));

// Requests change what is stored and use up faults: refresh both once a burst of entries has passed.
let pending;
const refreshSoon = () => {
  clearTimeout(pending);
  pending = setTimeout(() => void Promise.all([showHealth(), resources.refresh(), faults.refresh()]), 150);
};

const journal = journalView({
  table: $('#entries'),
  filters: { operation: $('#filter-operation'), status: $('#filter-status'), tenant: $('#filter-tenant'), failures: $('#filter-failures') },
  detail: $('#entry'),
  onEntry: refreshSoon,
});

/** serve --watch: the last reload (taken, or refused and why), or that none happened yet; hidden without --watch. */
function showReload({ watching, reload }) {
  const line = $('#reload');
  line.hidden = !watching && !reload;
  if (line.hidden) return;
  const at = reload ? new Date(reload.at).toLocaleTimeString() : '';
  const text = !reload
    ? `Watching the ${(watching ?? ['document']).join(', ')}; no change yet`
    : reload.ok
      ? `Reloaded at ${at}`
      : `Last reload refused at ${at}: ${reload.error}; still serving the last good document`;
  // Asked every 2 s: only a change is written, so a screen reader announces each reload once.
  if (line.textContent === text) return;
  line.className = !reload ? '' : reload.ok ? 'good' : 'bad';
  line.textContent = text;
}

async function showHealth() {
  const health = await call('GET', '/__control/health');
  if (health.status === 200 && health.json) {
    const { document: served, items, tenants } = health.json;
    $('#served').textContent = `Serving ${served.title} ${served.version} · ${counted(items, 'item')} · ${counted(tenants, 'tenant')}`;
    showReload(health.json);
  } else if (health.status !== 401) {
    $('#served').textContent = `The control API answered: ${reasonOf(health)}`;
  }
  return health.status === 200;
}

async function loadAll() {
  if (await showHealth()) await Promise.all([resources.load(), faults.load()]);
}

$('#har').addEventListener('click', async () => {
  const reply = await call('GET', '/__control/journal/har');
  if (reply.status !== 200) return ($('#live').textContent = `HAR: ${reasonOf(reply)}`);
  // The token went in the header; the file is handed over from memory, not by a URL that needs it.
  const link = Object.assign(document.createElement('a'), {
    href: URL.createObjectURL(new Blob([reply.text], { type: 'application/json' })),
    download: `plantstore-${new Date().toISOString().replaceAll(':', '-')}.har`,
  });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});
$('#clear-journal').addEventListener('click', async () => {
  const reply = await call('DELETE', '/__control/journal');
  if (reply.status === 204) journal.reset();
});

void loadAll();
// A reload makes no journal entry: ask health now and then (it is cheap and never journaled).
setInterval(() => {
  if (!document.hidden && tokenSection.hidden) void showHealth();
}, 2000);
void followJournal({
  onStart: () => journal.reset(),
  onEntry: (entry) => journal.add(entry),
  onState: (state) => {
    $('#live').textContent = state === 'live' ? 'Live' : state === 'token' ? 'Waiting for the admin token' : state;
  },
});
