/**
 * The folders and notes of test/resources/documents/partial-put.yaml, correct by its shapes: a
 * folder's PUT (its body requires nothing, Box's way) updates only the properties sent; a note's PUT
 * (its body requires the title, as the create does) replaces the note whole. Two faults, one each
 * way: a folder's PUT that drops what it did not send, and a note's PUT that keeps it.
 */
import { listenLocally, readBody, respond, type Answer, type LocalServer } from './http-double.js';

export const PARTIAL_PUT_FAULTS = {
  'folder-put-replaces': 'PUT /folders/{id} replaces the folder: what the body did not send is lost',
  'note-put-merges': 'PUT /notes/{id} keeps what the body did not send',
} as const;

export type PartialPutFault = keyof typeof PARTIAL_PUT_FAULTS;

type JsonObject = Record<string, unknown>;

const FOLDER = ['name', 'description', 'parent', 'tags'];
const NOTE = ['title', 'body'];

export function startPartialPutServer(fault?: PartialPutFault): Promise<LocalServer> {
  const folders = new Map<string, JsonObject>();
  const notes = new Map<string, JsonObject>();
  let next = 1;
  const refused = (status: number, message: string): Answer => ({ status, body: { code: status, message } });
  // The declared properties sent, in the item's order: a double's small reading of its body.
  const picked = (body: JsonObject, names: readonly string[]): JsonObject =>
    Object.fromEntries(names.filter((name) => Object.hasOwn(body, name)).map((name) => [name, body[name]])) as JsonObject;

  const collection = (items: Map<string, JsonObject>, names: readonly string[], required: readonly string[], idOf: (n: number) => string | number) => {
    return (method: string, id: string | undefined, body: JsonObject | undefined, merges: boolean): Answer => {
      if (id === undefined) {
        if (method === 'GET') return { status: 200, body: [...items.values()] };
        if (method !== 'POST') return refused(405, 'no such method');
        if (body === undefined || required.some((name) => !Object.hasOwn(body, name))) return refused(400, `required: ${required.join(', ')}`);
        const item = { id: idOf(next++), ...picked(body, names) } as JsonObject;
        items.set(String(item.id), item);
        return { status: 201, body: item };
      }
      const stored = items.get(id);
      if (stored === undefined) return refused(404, `no item ${id}`);
      if (method === 'GET') return { status: 200, body: stored };
      if (method === 'DELETE') {
        items.delete(id);
        return { status: 204 };
      }
      if (method !== 'PUT') return refused(405, 'no such method');
      const sent = picked(body ?? {}, names);
      const changed = { ...(merges ? stored : {}), ...sent, id: stored.id } as JsonObject;
      items.set(id, changed);
      return { status: 200, body: changed };
    };
  };
  const folder = collection(folders, FOLDER, ['name', 'parent'], String);
  const note = collection(notes, NOTE, ['title'], (n) => n);

  return listenLocally((req, res) => {
    readBody(req, res, 1 << 20, (raw) => {
      respond(res, () => {
        const [path = ''] = (req.url ?? '').split('?');
        const match = /^\/(folders|notes)(?:\/([^/]+))?$/.exec(path);
        if (match === null) return refused(404, 'no such path');
        let body: JsonObject | undefined;
        if (raw !== undefined && raw.length > 0) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(raw.toString('utf8'));
          } catch {
            return refused(400, 'not JSON');
          }
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refused(400, 'a JSON object is needed');
          body = parsed as JsonObject;
        }
        const method = req.method ?? 'GET';
        const id = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
        if (match[1] === 'folders') return folder(method, id, body, fault !== 'folder-put-replaces');
        return note(method, id, body, fault === 'note-put-merges');
      });
    });
  });
}
