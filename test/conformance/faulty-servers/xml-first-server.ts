/**
 * The notes of test/fixtures/documents/xml-first-list.yaml, answering JSON: created and read with
 * their id as `id`, listed with it as `note_id`, as the document's JSON answers say. One fault: a
 * created note is left out of the list.
 */
import { isJsonObject, JsonSyntaxError, parseExactJson, type JsonValue } from './exact-json.js';
import { listenWithBodies, type Answer, type LocalServer } from './http-double.js';

export type NotesFault = 'unlisted';

export function startNotesServer(fault?: NotesFault): Promise<LocalServer> {
  const notes = new Map<number, string>();
  let next = 1;
  const error = (status: number, message: string): Answer => ({ status, body: { message } });
  const handle = (method: string, path: string, contentType: string | undefined, body: string): Answer => {
    if (path === '/notes' && method === 'GET')
      return { status: 200, body: [...notes].filter(() => fault !== 'unlisted').map(([id, text]) => ({ note_id: id, text })) };
    if (path === '/notes' && method === 'POST') {
      if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json') return error(400, 'the content type must be application/json');
      let value: JsonValue;
      try {
        value = parseExactJson(body);
      } catch (failure) {
        return error(400, failure instanceof JsonSyntaxError ? `not JSON: ${failure.message}` : 'not JSON');
      }
      if (!isJsonObject(value)) return error(400, 'the body must be an object');
      const text = value.get('text');
      if (typeof text !== 'string' || text.length === 0 || [...text].length > 200) return error(400, 'text must be a string of 1 to 200 characters');
      const id = next++;
      notes.set(id, text);
      return { status: 201, body: { id, text } };
    }
    const match = /^\/notes\/([^/]+)$/.exec(path);
    if (match === null) return error(404, `no ${method} ${path}`);
    const raw = decodeURIComponent(match[1] as string);
    if (!/^-?\d+$/.test(raw)) return error(400, `id must be an integer, not ${raw}`);
    const id = Number(raw);
    const text = notes.get(id);
    if (text === undefined) return error(404, `no note ${raw}`);
    if (method === 'GET') return { status: 200, body: { id, text } };
    if (method === 'DELETE') return notes.delete(id) ? { status: 204 } : error(404, `no note ${raw}`);
    return error(404, `no ${method} ${path}`);
  };
  return listenWithBodies(
    (req, path, text) => handle(req.method ?? 'GET', path, req.headers['content-type'], text),
    () => error(413, 'the body is too large'),
  );
}
