/** How the client asked for the mocked answer (Prism's Prefer conventions). */
export interface MockPreferences {
  readonly code?: number;
  readonly example?: string;
  readonly dynamic?: boolean;
}

/** The Prefer header read: the preferences (undefined when none is stated), or what is wrong with it. */
export type PreferRead = { readonly ok: true; readonly preferences: MockPreferences | undefined } | { readonly ok: false; readonly problem: string };

/** RFC 9110 §5.6.2 token, and a quoted-string without escapes worth keeping. */
/** Most requests state none: one answer for all of them. */
const NO_PREFERENCES: PreferRead = Object.freeze({ ok: true, preferences: undefined });

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QUOTED = /^"((?:[^"\\]|\\.)*)"$/;

/**
 * Prism's per-request conventions, from the Prefer header (RFC 7240):
 * `Prefer: code=400`, `Prefer: example=monstera`, `Prefer: dynamic=true`, combinable with commas.
 * A preference of ours with a value it cannot have (`code=abc`, `code=2OO`), or a header that is
 * not a list of `name[=value]` (a missing comma: `code=200 example=a`) is refused rather than
 * ignored: ignored, the request would go on to the store and create what the client meant to mock.
 * Other well-formed preferences (`return=minimal`, `respond-async`) are ignored, as RFC 7240 §2 asks.
 */
export function readPrefer(header: string | undefined): PreferRead {
  if (header === undefined) return NO_PREFERENCES;
  let preferences: MockPreferences | undefined;
  for (const part of header.split(/[,;]/)) {
    const text = part.trim();
    if (text === '') continue;
    const equals = text.indexOf('=');
    const name = (equals === -1 ? text : text.slice(0, equals)).trim();
    const raw = equals === -1 ? '' : text.slice(equals + 1).trim();
    if (!TOKEN.test(name)) return refusal(`"${clip(text)}" is not a preference (name=value; several are separated by commas)`);
    const quoted = QUOTED.exec(raw);
    if (equals !== -1 && !quoted && !TOKEN.test(raw)) {
      return refusal(`the value of ${name} ("${clip(raw)}") is neither a single word nor quoted; is a comma missing between two preferences?`);
    }
    const value = quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : raw;
    switch (name.toLowerCase()) {
      case 'code':
        if (!/^[1-5]\d\d$/.test(value)) return refusal(`code must be an HTTP status from 100 to 599 the operation declares, not "${clip(value)}"`);
        preferences = { ...preferences, code: Number(value) };
        break;
      case 'example':
        if (value === '') return refusal("example must name one of the operation's examples, e.g. example=monstera");
        preferences = { ...preferences, example: value };
        break;
      case 'dynamic': {
        const flag = value.toLowerCase();
        if (flag !== 'true' && flag !== 'false') return refusal(`dynamic must be true or false, not "${clip(value)}"`);
        // dynamic=false is the default, not a preference: it must not take the request past validation and the store.
        if (flag === 'true') preferences = { ...preferences, dynamic: true };
        break;
      }
      default:
      // Someone else's preference: not ours to refuse.
    }
  }
  return { ok: true, preferences };
}

function refusal(problem: string): PreferRead {
  return { ok: false, problem };
}

/** What the client wrote, quoted back within reason. */
function clip(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 60)}…`;
}
