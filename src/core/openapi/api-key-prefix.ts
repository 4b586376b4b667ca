/**
 * The word an API key travels behind in its header, as in RealWorld Conduit's
 * `Authorization: Token <jwt>`. OpenAPI has no field for it, so it is read, in this order, from
 * the scheme's `x-plantstore-prefix` extension (`""` for none), then from its description where
 * that shows the header's form: `Authorization: Token abc`, or `Token xxxxx.yyyyy.zzzzz`,
 * `Token <token>`, `Token {jwt}` (a capitalised word before a placeholder). Serve requires the
 * prefix and verify sends it, so both read it here.
 */
import type { IApiKeySecurityScheme } from '@stoplight/types';

export const PREFIX_EXTENSION = 'x-plantstore-prefix';

/** Descriptions are prose of any length: only their start is read for the form. */
const MAX_DESCRIPTION = 4096;
const WORD = '[A-Za-z][A-Za-z0-9_-]{0,31}';
/** What stands for the key in prose: xxxxx, <token>, {token}, [token], ${TOKEN}, a JWT's a.b.c. */
const PLACEHOLDER =
  '(?:x{3,}[\\w.-]*|<[^<>\\s]{1,40}>|\\{[^{}\\s]{1,40}\\}|\\[[^[\\]\\s]{1,40}\\]|\\$\\{?\\w{1,40}\\}?|[\\w-]{1,64}\\.[\\w-]{1,64}\\.[\\w-]{1,64})';
const SHOWN_FORM = new RegExp(`(?:^|[\\s'"\`(])([A-Z][A-Za-z0-9_-]{0,31}) +${PLACEHOLDER}(?=$|[\\s'"\`).,;])`, 'm');

/** "Token " for a header key whose form says so; undefined when it travels alone (or not in a header). */
export function apiKeyPrefix(scheme: Pick<IApiKeySecurityScheme, 'in' | 'name' | 'description' | 'extensions'>): string | undefined {
  if (scheme.in !== 'header') return undefined;
  const declared = scheme.extensions?.[PREFIX_EXTENSION];
  if (typeof declared === 'string') return declared.trim() === '' ? undefined : `${declared.trim()} `;
  const description = scheme.description?.slice(0, MAX_DESCRIPTION);
  if (description === undefined) return undefined;
  const named = new RegExp(`${escaped(scheme.name)}['"\`]?\\s*:\\s*(${WORD}) +\\S`, 'i').exec(description)?.[1];
  // The named form is matched in any case, so its word must still look like a scheme word, not prose.
  const word = (named !== undefined && /^[A-Z]/.test(named) ? named : undefined) ?? SHOWN_FORM.exec(description)?.[1];
  return word === undefined ? undefined : `${word} `;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
