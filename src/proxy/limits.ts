/** Apart from forward.ts so the option table (read at every start) does not load the proxy and undici's wrapper. */

/** The default of --proxy-body-limit: the largest answer body read whole (and judged). */
export const PROXY_LIMITS = { bodyBytes: 4 * 1024 * 1024 } as const;
