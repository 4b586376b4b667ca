/**
 * undici, loaded on first use: its ~110 modules were a large part of what `serve` loaded at start,
 * though only a webhook delivery or a proxied request needs it.
 */
type Undici = typeof import('undici');

let loaded: Promise<Undici> | undefined;

export function undici(): Promise<Undici> {
  loaded ??= import('undici');
  return loaded;
}
