/** How the client asked for the mocked answer (Prism's Prefer conventions). */
export interface MockPreferences {
  readonly code?: number;
  readonly example?: string;
  readonly dynamic?: boolean;
}

/**
 * Prism's per-request conventions, from the Prefer header (RFC 7240):
 * `Prefer: code=400`, `Prefer: example=monstera`, `Prefer: dynamic=true`, combinable with commas.
 * Returns undefined when the request states no preference.
 */
export function parsePrefer(header: string | undefined): MockPreferences | undefined {
  if (header === undefined) return undefined;
  let preferences: MockPreferences | undefined;
  for (const part of header.split(/[,;]/)) {
    const [name = '', value = ''] = part.split('=').map((text) => text.trim());
    const key = name.toLowerCase();
    const unquoted = value.replace(/^"(.*)"$/, '$1');
    if (key === 'code' && /^[1-5]\d\d$/.test(unquoted)) preferences = { ...preferences, code: Number(unquoted) };
    else if (key === 'example' && unquoted !== '') preferences = { ...preferences, example: unquoted };
    // dynamic=false is the default, not a preference: it must not take the request past validation and the store.
    else if (key === 'dynamic' && unquoted.toLowerCase() === 'true') preferences = { ...preferences, dynamic: true };
  }
  return preferences;
}
