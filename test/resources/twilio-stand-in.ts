/**
 * A stand-in of the cut of Twilio's TaskRouter document (test/fixtures/documents/README.md) and a
 * client that speaks to it as Twilio's clients do: HTTP Basic, bodies as forms.
 */
import { send, serverFor, type Reply } from '../support/server.js';

export const TWILIO_SPEC = new URL('../fixtures/documents/twilio-taskrouter-workspaces.json', import.meta.url).pathname;
const BASIC = `Basic ${Buffer.from('ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx:secret').toString('base64')}`;

/** Starts the stand-in for the describe block it is called in; `call` sends a form (when given) with credentials. */
export function twilioStandIn() {
  const server = serverFor({ spec: TWILIO_SPEC });
  const call = (method: string, path: string, form?: Record<string, string>): Promise<Reply> =>
    send(`${server.current.url}${path}`, {
      method,
      headers: { authorization: BASIC, ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(form === undefined ? {} : { body: new URLSearchParams(form).toString() }),
    });
  return { server, call };
}
