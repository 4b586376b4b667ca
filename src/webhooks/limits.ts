/** Apart from sender.ts so the option table (read at every start) does not load the webhook sender. */

/** The defaults of a sender's `history` and `maxPending`. */
export const WEBHOOK_LIMITS = { history: 200, maxPending: 1000 } as const;
