/**
 * The notes of test/fixtures/documents/xml-first-bodies.yaml, read and answered in JSON: a note not
 * said to be pinned is not (pinned: false, the JSON body's default). One fault: the text is not
 * carried back as sent (the answer trims it).
 */
import { jsonObjectBody } from './exact-json.js';
import { listenWithBodies, type Answer, type LocalServer } from './http-double.js';

export type XmlFirstBodiesFault = 'trims-text';

interface Note {
  readonly text: string;
  readonly pinned: boolean;
}

export function startXmlFirstBodiesServer(fault?: XmlFirstBodiesFault): Promise<LocalServer> {
  const notes = new Map<number, Note>();
  let next = 1;
  const error = (status: number, message: string): Answer => ({ status, body: { message } });
  const shown = (id: number, note: Note) => ({ id, text: fault === 'trims-text' ? note.text.trim() || '-' : note.text, pinned: note.pinned });
  const handle = (method: string, path: string, contentType: string | undefined, body: string): Answer => {
    if (path === '/notes' && method === 'POST') {
      const value = jsonObjectBody(body, contentType);
      if (typeof value === 'string') return error(400, value);
      const text = value.get('text');
      if (typeof text !== 'string' || text.length === 0 || [...text].length > 200) return error(400, 'text must be a string of 1 to 200 characters');
      const pinned = value.has('pinned') ? value.get('pinned') : false;
      if (typeof pinned !== 'boolean') return error(400, 'pinned must be true or false');
      const id = next++;
      const note = { text, pinned };
      notes.set(id, note);
      return { status: 201, body: shown(id, note) };
    }
    const match = /^\/notes\/([^/]+)$/.exec(path);
    if (match === null) return error(404, `no ${method} ${path}`);
    const raw = decodeURIComponent(match[1] as string);
    if (!/^-?\d+$/.test(raw)) return error(400, `id must be an integer, not ${raw}`);
    const id = Number(raw);
    const note = notes.get(id);
    if (note === undefined) return error(404, `no note ${raw}`);
    if (method === 'GET') return { status: 200, body: shown(id, note) };
    if (method === 'DELETE') return notes.delete(id) ? { status: 204 } : error(404, `no note ${raw}`);
    return error(404, `no ${method} ${path}`);
  };
  return listenWithBodies(
    (req, path, text) => handle(req.method ?? 'GET', path, req.headers['content-type'], text),
    () => error(413, 'the body is too large'),
  );
}
