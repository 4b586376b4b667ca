/**
 * `plantstore verify` against `plantstore serve` of the same document: the stand-in must conform
 * to every document it serves (issue 9), and the suite must raise no false alarm against a
 * correct server (issue 10). One document of each kind: the seed, the public Plant Store
 * (client-assigned int64 ids, list, delete, a webhook), the expanded Petstore (server-assigned
 * ids, `default` errors), the same with PUT and PATCH (pets-crud), uuid-keyed tickets (cursor paging, a
 * readOnly id), owners' nested pets, parts keyed by a client-assigned string (ambiguous.yaml), and the
 * OAI's examples in test/fixtures/documents (webhook-example has no operation to serve).
 * Where an operation declares no failure status at all, verify's warning about HTTP's own 400 or 404
 * is the document's gap, one no correct server can avoid: it is the only warning allowed, and only
 * for the documents that have such operations.
 */
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startServer } from '../../src/index.js';

const documentPath = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
/** verify's words for a warning about an operation that declares no failure status (contracts/checks/status-conformance.ts). */
const DOCUMENT_GAP = /the document declares (no failure status|failure statuses for refused credentials only)/;

/** Name, file, and whether the document has operations that declare no failure status. */
const DOCUMENTS: ReadonlyArray<
  readonly [string, string, { readonly gaps: boolean; readonly base?: string; readonly auth?: string[]; readonly signIn?: true }]
> = [
  ['the seed Plant Store', documentPath('../../spec/plant-store.yaml'), { gaps: false }],
  ['the public Plant Store', documentPath('../../spec/plant-store-public.yaml'), { gaps: false }],
  [
    'the public Plant Store with a limit of no format, default or maximum (Gitea’s)',
    documentPath('../fixtures/documents/plant-store-unbounded-limit.yaml'),
    { gaps: false },
  ],
  ['the expanded Petstore (server-assigned ids)', documentPath('../fixtures/documents/petstore-expanded.yaml'), { gaps: false }],
  ['the Petstore with PUT and PATCH (update-applied)', documentPath('../fixtures/documents/pets-crud.yaml'), { gaps: false }],
  ['tickets (server-assigned uuids, cursor paging, a readOnly id)', documentPath('../fixtures/documents/tickets.yaml'), { gaps: true }],
  ['owners and pets (nested pets, JSON Merge Patch, page/per_page)', documentPath('../fixtures/documents/owners-pets.yaml'), { gaps: true }],
  ['things, parts and gadgets (client-assigned string keys, settled by x-plantstore)', documentPath('../fixtures/documents/ambiguous.yaml'), { gaps: true }],
  // The OAI's examples: mostly mocked operations (no resource), a bearer-secured one without responses.
  ['the OAI petstore', documentPath('../fixtures/documents/petstore.yaml'), { gaps: false }],
  ['the OAI api-with-examples', documentPath('../fixtures/documents/api-with-examples.yaml'), { gaps: false }],
  ['the OAI callback-example', documentPath('../fixtures/documents/callback-example.yaml'), { gaps: true }],
  ['the OAI link-example', documentPath('../fixtures/documents/link-example.yaml'), { gaps: true }],
  ['the OAI non-oauth-scopes (no responses declared)', documentPath('../fixtures/documents/non-oauth-scopes.yaml'), { gaps: false }],
  ['the OAI uspto (a JSON string answer)', documentPath('../fixtures/documents/uspto.yaml'), { gaps: false }],
  // Ids the client may give or leave to the server (pet, order, user), verified under the document's base path.
  ['the Swagger Petstore 3 (optional ids, under /api/v3)', documentPath('../fixtures/documents/swagger-petstore3.yaml'), { gaps: true, base: '/api/v3' }],
  // Redocly's Museum API: basic auth, uuid ids either given or assigned, page without a minimum, an image/png answer.
  ["Redocly's Museum API (basic auth, a PNG answer)", documentPath('../fixtures/documents/museum.yaml'), { gaps: false, auth: ['basic:me:pw'] }],
  // A writeOnly password (sent, never answered) and an id a later allOf branch makes readOnly.
  ['accounts (a writeOnly password, a restated readOnly id)', documentPath('../fixtures/documents/accounts.yaml'), { gaps: false }],
  // A sign-up and log-in issuing the bearer token the notes then need (verify signs in by evidence; serve issues real tokens).
  ['notes with sign-in (issued tokens, a current user)', documentPath('../fixtures/documents/notes-sign-in.yaml'), { gaps: false, signIn: true }],
  // A refresh token written before the bearer (sorted keys): the bearer is the token, never the refresh token.
  [
    'notes with a refresh token first (the bearer is the token)',
    documentPath('../fixtures/documents/refresh-first-sign-in.yaml'),
    { gaps: false, signIn: true },
  ],
  // Envelopes, sign-up and log-in issuing the token, a slug the server makes from the title (issue 20's Conduit shape).
  ['Conduit-style articles (envelopes, sign-in, a server-made slug)', documentPath('../fixtures/documents/conduit.yaml'), { gaps: false, signIn: true }],
  // Server-made fields: a slug from the title keys the items; times, a counter and a flag the client never sends.
  ['articles (a server-made slug, times, a counter, a flag)', documentPath('../fixtures/documents/articles.yaml'), { gaps: true }],
  // The faulty servers' own shapes: an id the client may give or leave to the server, parts keyed by a string sku.
  ['optional ids (given or assigned)', documentPath('../fixtures/documents/optional-ids.yaml'), { gaps: false }],
  ['parts (a client-assigned string key)', documentPath('../fixtures/documents/parts.yaml'), { gaps: false }],
  ['TodoItems (a PUT that carries the whole item, id included)', documentPath('../fixtures/documents/todo-items.yaml'), { gaps: false }],
  // Eclipse Ditto's shapes: required ce-* headers and a required query on a create; a server-assigned id its PUT and PATCH bodies may carry.
  [
    'cloud events (required header and query parameters on every valid request)',
    documentPath('../fixtures/documents/cloudevents-headers.yaml'),
    { gaps: false },
  ],
  ['things with server-assigned ids their replace and update bodies carry', documentPath('../fixtures/documents/things-server-ids.yaml'), { gaps: false }],
  // A cursor-paged list that declares 400, as Ory Kratos's lists do: serve refuses a cursor it never gave.
  ['notes paged by cursor, with a declared 400', documentPath('../resources/documents/cursor-refusal.yaml'), { gaps: true }],
  // Public documents of shapes the ones above do not have (issue 19): oneOf bodies with discriminators,
  // path-level parameters with a number id and a path naming it twice, a two-parameter square path answering text/html.
  [
    "ReadMe's discriminators (oneOf and allOf bodies, discriminators with and without mappings)",
    documentPath('../fixtures/documents/discriminators.yaml'),
    { gaps: true },
  ],
  [
    "ReadMe's common parameters (path-level parameters, a number id named twice in one path)",
    documentPath('../fixtures/documents/common-parameters.yaml'),
    { gaps: true },
  ],
  ["the OAI's Tic Tac Toe (a row and column path, text/html refusals)", documentPath('../fixtures/documents/tictactoe.yaml'), { gaps: true }],
  [
    "DigitalOcean's shapes (users nested under clusters, items sent bare and answered wrapped, ipv6 keys)",
    documentPath('../fixtures/documents/digitalocean-cuts.yaml'),
    { gaps: true },
  ],
  // Supabase Auth (GoTrue), cut down: a sign-up and a password grant answering an OAuth 2 token response (access_token, expires_in), a log-out.
  ['GoTrue sessions (an access token that expires, a log-out)', documentPath('../fixtures/documents/gotrue-sessions.yaml'), { gaps: true, signIn: true }],
  ['notes listed in XML first (the JSON list names the id note_id)', documentPath('../fixtures/documents/xml-first-list.yaml'), { gaps: true }],
  ['notes written and answered in XML first (PascalCase XML answers)', documentPath('../fixtures/documents/xml-first-bodies.yaml'), { gaps: true }],
  // The public RealWorld document: envelopes, a sign-up whose User declares no token (added as user.token), `Token <t>`, ?tag= over tagList.
  [
    'the public RealWorld Conduit (envelopes, sign-in, a token the document does not declare)',
    documentPath('../fixtures/documents/realworld-conduit.yaml'),
    { gaps: true, signIn: true },
  ],
];

function problems(report: VerifyReport, gaps: boolean): string[] {
  return report.checks.flatMap((check) => {
    if (check.status !== 'failed' && check.status !== 'warned') return [];
    const findings = check.findings.filter((finding) => !(gaps && finding.severity === 'warning' && DOCUMENT_GAP.test(finding.message)));
    if (check.findings.length > 0 && findings.length === 0) return [];
    const finding = findings[0];
    return [`${check.id}: ${check.status}${finding ? ` — ${finding.message}: ${finding.request.method} ${finding.request.url} → ${finding.actual}` : ''}`];
  });
}

describe('plantstore serve conforms to the document it serves, as plantstore verify judges it', () => {
  it.each(DOCUMENTS)('%s', { timeout: 180_000 }, async (_name, spec, { gaps, base, auth, signIn }) => {
    const server = await startServer({ spec, port: 0 });
    try {
      const report = await verify({
        target: `${server.url}${base ?? ''}`,
        spec,
        // A document that signs users in honours only the tokens it issued: verify signs in by evidence.
        ...(signIn ? {} : { token: 'test-token' }),
        ...(auth === undefined ? {} : { auth }),
        runs: 25,
        seed: 20_261_123,
        timeoutMs: 5_000,
      });
      expect(problems(report, gaps)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.casesRun).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

/** The fixture documents left out above, each with why: every other one must be in DOCUMENTS. */
const NOT_SERVED: Readonly<Record<string, string>> = {
  'webhook-example.yaml': 'webhooks and no paths: serve refuses a document without operations (its golden records the refusal)',
};

describe('every fixture document is verified against serve', () => {
  it('is listed above, or left out with a reason', () => {
    const fixtures = readdirSync(documentPath('../fixtures/documents')).filter((name) => name.endsWith('.yaml'));
    const listed = new Set(DOCUMENTS.map(([, spec]) => basename(spec)));
    expect(fixtures.filter((name) => !listed.has(name) && NOT_SERVED[name] === undefined)).toEqual([]);
  });
});
