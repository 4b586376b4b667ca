// The live journal: each entry's row with its reason, the filters, and an entry opened in full.
import { parseExact, toJson } from './api.js';

const MAX_SHOWN = 1000;

/** Builds an element: el('td', { className: 'x' }, 'text', child). Text is always text, never markup. */
export function el(tag, properties = {}, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

/**
 * Why an entry ended as it did: the fault applied, the refusal's error code and message (from the
 * Error body the journal kept, else the validation outcome), and the contract violations a proxied
 * answer carries. Each item: { kind: 'fault' | 'refusal' | 'violation', text }.
 */
export function reasonsOf(entry) {
  const reasons = [];
  if (entry.fault) reasons.push({ kind: 'fault', text: `fault: ${entry.fault}` });
  const failed = entry.status >= 400 || entry.status === 0;
  const error = failed ? errorBody(entry.response.body) : undefined;
  if (error) reasons.push({ kind: 'refusal', text: `error ${error.error}: ${error.message}` });
  else if (entry.validation && entry.validation.ok === false)
    reasons.push({ kind: 'refusal', text: `error ${entry.validation.error}: ${entry.validation.message}` });
  else if (entry.status === 0) reasons.push({ kind: 'refusal', text: 'the connection was dropped without an answer' });
  for (const violation of entry.violations ?? []) reasons.push({ kind: 'violation', text: `${violation.side} ${violation.check}: ${violation.message}` });
  return reasons;
}

function errorBody(text) {
  try {
    const body = parseExact(text);
    return body && typeof body.message === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

const isFailure = (entry) => entry.status === 0 || entry.status >= 400 || (entry.violations ?? []).length > 0;

/** The journal view: add(entry) as they arrive, reset() when a stream starts over. */
export function journalView({ table, filters, detail, onEntry }) {
  const entries = [];
  const seen = { operation: new Set(), tenant: new Set() };

  const matches = (entry) => {
    const operation = filters.operation.value;
    const status = filters.status.value;
    const tenant = filters.tenant.value;
    return (
      (operation === '' || (entry.operation ?? '') === operation) &&
      (status === '' || (status === '0' ? entry.status === 0 : String(entry.status).startsWith(status) && entry.status >= 100)) &&
      (tenant === '' || entry.tenant === tenant) &&
      (!filters.failures.checked || isFailure(entry))
    );
  };

  const offer = (set, select, value) => {
    if (set.has(value)) return;
    set.add(value);
    select.append(el('option', { value, textContent: value || '(no operation)' }));
  };

  const row = (entry) => {
    const open = el('button', { type: 'button', className: 'link', textContent: `${entry.method} ${entry.path}${entry.query}` });
    open.setAttribute('aria-label', `Open request ${entry.sequence}: ${entry.method} ${entry.path}`);
    open.addEventListener('click', () => showEntry(detail, entry));
    const why = el('ul', { className: 'reasons' }, ...reasonsOf(entry).map((reason) => el('li', { className: reason.kind, textContent: reason.text })));
    return el(
      'tr',
      { className: isFailure(entry) ? 'failed' : '' },
      el('td', { textContent: String(entry.sequence) }),
      el('td', { textContent: entry.time.slice(11, 23), title: entry.time }),
      el('td', { textContent: entry.operation ?? '—' }),
      el('td', {}, open),
      el('td', { className: `status s${String(entry.status)[0]}`, textContent: String(entry.status) }),
      el('td', { className: 'number', textContent: entry.durationMs.toFixed(1) }),
      el('td', { textContent: entry.tenant }),
      el('td', {}, why),
    );
  };

  const render = () => table.tBodies[0].replaceChildren(...entries.filter(matches).reverse().map(row));
  for (const control of [filters.operation, filters.status, filters.tenant, filters.failures]) control.addEventListener('change', render);

  return {
    reset() {
      entries.length = 0;
      render();
    },
    add(entry) {
      entries.push(entry);
      if (entries.length > MAX_SHOWN) entries.shift();
      offer(seen.operation, filters.operation, entry.operation ?? '');
      offer(seen.tenant, filters.tenant, entry.tenant);
      if (matches(entry)) table.tBodies[0].prepend(row(entry));
      onEntry(entry);
    },
  };
}

/** An entry in full: why, request and response (headers, body), and the request as curl. */
function showEntry(detail, entry) {
  const title = detail.querySelector('h3');
  title.textContent = `Request ${entry.sequence}: ${entry.method} ${entry.path} → ${entry.status}`;
  const curl = curlOf(entry);
  const copy = el('button', { type: 'button', textContent: 'Copy as curl' });
  const copied = el('span', { role: 'status' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(curl);
      copied.textContent = 'copied';
    } catch {
      copied.textContent = 'the browser refused the clipboard; select the command above';
    }
  });
  const reasons = reasonsOf(entry);
  detail
    .querySelector('#entry-body')
    .replaceChildren(
      el('p', { textContent: `${entry.time} · ${entry.operation ?? 'no operation'} · tenant ${entry.tenant} · ${entry.durationMs.toFixed(1)} ms` }),
      reasons.length
        ? el('ul', { className: 'reasons' }, ...reasons.map((reason) => el('li', { className: reason.kind, textContent: reason.text })))
        : undefined,
      message('Request', entry.request),
      message('Response', entry.response),
      el('h4', { textContent: 'As curl' }),
      el('pre', { className: 'curl', textContent: curl }),
      copy,
      copied,
      el('button', { type: 'button', textContent: 'Close', onclick: () => (detail.hidden = true) }),
    );
  detail.hidden = false;
  title.focus();
}

function message(name, { headers, body, bodySize, truncated }) {
  const rows = Object.entries(headers).map(([header, value]) =>
    el('tr', {}, el('th', { scope: 'row', textContent: header }), el('td', { textContent: value })),
  );
  const size = truncated ? `${bodySize} bytes, first 4096 shown` : `${bodySize} bytes`;
  return el(
    'div',
    { className: 'message' },
    el('h4', { textContent: name }),
    el('table', {}, el('caption', { textContent: `${name} headers` }), el('tbody', {}, ...rows)),
    el('pre', { textContent: body ? pretty(body) : '(no body)' }),
    el('p', { className: 'note', textContent: size }),
  );
}

function pretty(text) {
  try {
    return toJson(parseExact(text), 2);
  } catch {
    return text;
  }
}

const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding']);

/** The request as curl, against this origin. Masked credentials become $TOKEN for the shell to fill in. */
export function curlOf(entry) {
  const quote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;
  // Inside double quotes, so $TOKEN expands; the rest of the text is escaped to stay as it is.
  const masked = (text) =>
    text
      .split('***')
      .map((part) => part.replace(/[\\"$`]/g, '\\$&'))
      .join('$TOKEN');
  const parts = [`curl -X ${entry.method} ${quote(`${location.origin}${entry.path}${entry.query}`)}`];
  for (const [name, value] of Object.entries(entry.request.headers)) {
    if (SKIPPED.has(name)) continue;
    parts.push(value.includes('***') ? `-H "${masked(`${name}: ${value}`)}"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (entry.request.body) parts.push(`--data-raw ${quote(entry.request.body)}`);
  return parts.join(' \\\n  ');
}
