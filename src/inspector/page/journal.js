// The live journal: each entry's row with its reason, the filters, and an entry opened in full.
import { parseExact, toJson } from './api.js';

const MAX_SHOWN = 1000;

/** Builds an element: el('td', { className: 'x' }, 'text', child). Text is always text, never markup. */
export function el(tag, properties = {}, ...children) {
  const node = Object.assign(document.createElement(tag), properties);
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

/** The request's path with its query string, `?` included: the journal keeps the query without it. */
export const targetOf = (entry) => (entry.query ? `${entry.path}${entry.query.startsWith('?') ? '' : '?'}${entry.query}` : entry.path);

/**
 * Why an entry ended as it did: the fault applied, the refusal's reason (refusalOf), and the
 * contract violations a proxied answer carries. Each item: { kind: 'fault' | 'refusal' | 'violation', text }.
 */
export function reasonsOf(entry) {
  const reasons = [];
  if (entry.fault) reasons.push({ kind: 'fault', text: `fault: ${entry.fault}` });
  const failed = entry.status >= 400 || entry.status === 0;
  const refusal = failed ? refusalOf(entry) : undefined;
  if (refusal) reasons.push({ kind: 'refusal', text: refusal });
  else if (entry.status === 0) reasons.push({ kind: 'refusal', text: 'the connection was dropped without an answer' });
  for (const violation of entry.violations ?? []) reasons.push({ kind: 'violation', text: `${violation.side} ${violation.check}: ${violation.message}` });
  return reasons;
}

/**
 * A refused answer's reason, from its body as the document shapes it: the stand-in's Error
 * (`error`, `message`), a problem+json's `detail` else `title`, else the first string (or list of
 * strings) the body holds, else a plain-text body's first line; failing all, the journal's
 * validation outcome. Undefined when none says anything.
 */
function refusalOf(entry) {
  const body = parsed(entry.response.body);
  if (isObject(body) && typeof body.message === 'string' && body.message !== '') return `error ${body.error ?? entry.status}: ${body.message}`;
  const code = isObject(body) && Number.isInteger(body.status) ? body.status : entry.status;
  const said = saidBy(body, entry.response);
  if (said) return `error ${code}: ${said}`;
  if (entry.validation && entry.validation.ok === false) return `error ${entry.validation.error}: ${entry.validation.message}`;
  return undefined;
}

function saidBy(body, response) {
  if (body === undefined) return plainLine(response);
  if (typeof body === 'string') return nonEmpty(body) ? body : undefined;
  return (isObject(body) && problemReason(body)) || firstText(body, 0);
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value) => typeof value === 'string' && value.trim() !== '';

function parsed(text) {
  try {
    return text ? parseExact(text) : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 9457: `detail` explains this occurrence, `title` names the kind of problem. */
const problemReason = (body) => (nonEmpty(body.detail) ? body.detail : nonEmpty(body.title) ? body.title : undefined);

/** A problem's URIs (`type`, `instance`) name, they do not explain: passed over. */
const URI_FIELDS = new Set(['type', 'instance']);

/** The first string, or strings of a list, in the body's order, a few levels deep ({"errors": {"body": ["can't be blank"]}}). */
function firstText(value, depth) {
  if (depth > 4) return undefined;
  if (Array.isArray(value)) {
    const strings = value.filter(nonEmpty);
    if (strings.length > 0) return strings.join('; ');
    for (const item of value) {
      const found = firstText(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [name, field] of Object.entries(value)) {
    if (nonEmpty(field) && !URI_FIELDS.has(name)) return field;
    const found = typeof field === 'object' ? firstText(field, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A text body's first line (not HTML: a page of markup explains nothing in one line), cut at 200 characters. */
function plainLine({ headers, body }) {
  const type = (headers?.['content-type'] ?? '').toLowerCase();
  if (!nonEmpty(body) || type.includes('html') || !(type === '' || type.startsWith('text/'))) return undefined;
  const line = body.trim().split('\n', 1)[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Longer reasons are cut in the row (whole in the title and in the opened entry): one must not make its row a page tall. */
const REASON_CHARACTERS = 300;

const shortReason = ({ kind, text }) =>
  text.length <= REASON_CHARACTERS
    ? el('li', { className: kind, textContent: text })
    : el('li', { className: kind, textContent: `${text.slice(0, REASON_CHARACTERS)}…`, title: text });

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
    const request = `${entry.method} ${targetOf(entry)}`;
    // A long URL is cut short in its cell (CSS); the title keeps it whole.
    const open = el('button', { type: 'button', className: 'link', textContent: request, title: request });
    open.dataset.sequence = String(entry.sequence);
    open.setAttribute('aria-label', `Open request ${entry.sequence}: ${request}`);
    open.addEventListener('click', () => showEntry(detail, entry));
    const why = el('ul', { className: 'reasons' }, ...reasonsOf(entry).map(shortReason));
    return el(
      'tr',
      { className: isFailure(entry) ? 'failed' : '' },
      el('td', { textContent: String(entry.sequence) }),
      el('td', { textContent: entry.time.slice(11, 23), title: entry.time }),
      el('td', { className: 'operation' }, el('span', { textContent: entry.operation ?? '—', title: entry.operation ?? 'no operation' })),
      el('td', { className: 'request' }, open),
      el('td', { className: `status s${String(entry.status)[0]}`, textContent: String(entry.status) }),
      el('td', { className: 'number', textContent: entry.durationMs.toFixed(1) }),
      el('td', { textContent: entry.tenant }),
      el('td', { className: 'why' }, why),
    );
  };

  // Escape anywhere in the opened entry closes it, as its Close button does.
  detail.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !detail.hidden) closeEntry(detail);
  });

  // An empty table says nothing by itself: its caption says whether nothing came or the filters hide it.
  const caption = () => {
    const shown = table.tBodies[0].rows.length;
    table.caption.textContent =
      shown > 0 ? 'Newest first' : entries.length === 0 ? `No requests yet: send one to ${location.origin}` : 'No request matches the filters';
  };
  const render = () => {
    table.tBodies[0].replaceChildren(...entries.filter(matches).reverse().map(row));
    caption();
  };
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
      caption();
      onEntry(entry);
    },
  };
}

/** An entry in full: why, request and response (headers, body), and the request as curl. */
function showEntry(detail, entry) {
  const title = detail.querySelector('h3');
  title.textContent = `Request ${entry.sequence}: ${entry.method} ${targetOf(entry)} → ${entry.status}`;
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
  const parts = [
    el('p', { textContent: `${entry.time} · ${entry.operation ?? 'no operation'} · tenant ${entry.tenant} · ${entry.durationMs.toFixed(1)} ms` }),
    // replaceChildren writes an undefined as the text "undefined": only the parts there are.
    ...(reasons.length ? [el('ul', { className: 'reasons' }, ...reasons.map((reason) => el('li', { className: reason.kind, textContent: reason.text })))] : []),
    message('Request', entry.request),
    message('Response', entry.response),
    el('h4', { textContent: 'As curl' }),
    el('pre', { className: 'curl', textContent: curl }),
    el('div', { className: 'actions' }, copy, copied, el('button', { type: 'button', textContent: 'Close', onclick: () => closeEntry(detail) })),
  ];
  detail.querySelector('#entry-body').replaceChildren(...parts);
  detail.dataset.sequence = String(entry.sequence);
  detail.hidden = false;
  title.focus();
}

/** Hides the detail and gives the focus back to its request's row (found again: a filter may have redrawn the rows). */
function closeEntry(detail) {
  detail.hidden = true;
  const opener = document.querySelector(`#entries button[data-sequence="${detail.dataset.sequence}"]`);
  (opener ?? document.querySelector('#journal-title')).focus();
}

function message(name, { headers, body, bodySize, truncated }) {
  const rows = Object.entries(headers).map(([header, value]) =>
    el('tr', {}, el('th', { scope: 'row', textContent: header }), el('td', { textContent: value })),
  );
  const size = truncated ? `${bodySize} bytes, the first ${new TextEncoder().encode(body).length} shown` : `${bodySize} bytes`;
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
  const parts = [`curl -X ${entry.method} ${quote(`${location.origin}${targetOf(entry)}`)}`];
  for (const [name, value] of Object.entries(entry.request.headers)) {
    if (SKIPPED.has(name)) continue;
    parts.push(value.includes('***') ? `-H "${masked(`${name}: ${value}`)}"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  if (entry.request.body) parts.push(`--data-raw ${quote(entry.request.body)}`);
  return parts.join(' \\\n  ');
}
