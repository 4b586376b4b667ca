/**
 * verify against serve on documents whose bodies are wrapped in envelopes: the suite reads the
 * items inside them as serve does (core/schema/envelope.ts), so a resource's life is driven and
 * judged (created, read, listed, changed, deleted) instead of skipped, and serve's answers pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../../contracts/index.js';
import type { VerifyReport } from '../../contracts/report.js';
import { startServer, type RunningServer } from '../../src/index.js';

const NOTES = new URL('../resources/documents/notes-meta.yaml', import.meta.url).pathname;
const REALWORLD = new URL('../fixtures/documents/realworld-conduit.yaml', import.meta.url).pathname;
const SEED = Number(process.env.PLANTSTORE_FAULT_SEED ?? 20_261_127);

const statusOf = (report: VerifyReport) => Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
const summary = (report: VerifyReport) =>
  report.checks
    .filter((check) => check.status === 'failed' || check.status === 'warned')
    .map((check) => `${check.id}: ${check.findings.map((finding) => finding.message).join(' | ')}`)
    .join('\n');

async function verifyServe(spec: string, runs: number): Promise<VerifyReport> {
  const server: RunningServer = await startServer({ port: 0, spec });
  try {
    return await verify({ target: server.url, spec, runs, seed: SEED, timeoutMs: 5_000 });
  } finally {
    await server.close();
  }
}

describe('verify against serve, bodies in envelopes', () => {
  let notes: VerifyReport;
  let realworld: VerifyReport;
  beforeAll(async () => {
    notes = await verifyServe(NOTES, 40);
    // At verify's default runs: its concurrent cases then create more articles than the list's default page of 20 holds.
    realworld = await verifyServe(REALWORLD, 200);
  }, 240_000);

  it('{"data": {...}} items and a {"data": [...], "meta": {...}} list: every lifecycle check runs and passes', () => {
    expect(notes.ok, summary(notes)).toBe(true);
    expect(statusOf(notes)).toMatchObject({
      'created-item-listed': 'passed',
      'deleted-item-not-listed': 'passed',
      'ensure-resource-availability': 'passed',
      'deleted-item-gone': 'passed',
      'update-applied': 'passed',
      'stored-content-shown': 'passed',
      'list-limit-respected': 'passed',
    });
  });

  it('the RealWorld Conduit document: verify signs in (Token <t>), drives the articles and comments, every answer as declared', () => {
    // The issued token travels as the apiKey in Authorization; a user update refused as taken by another sign-up is expected.
    expect(realworld.ok, summary(realworld)).toBe(true);
    expect(statusOf(realworld), summary(realworld)).toMatchObject({
      'positive-acceptance': 'passed',
      'no-server-errors': 'passed',
      'status-conformance': 'passed',
      'response-schema-conformance': 'passed',
      'response-reflects-request': 'passed',
      // A list asked for no limit answers its declared default page (20): a full one is not judged complete.
      'created-item-listed': 'passed',
      'update-applied': 'passed',
      'deleted-item-gone': 'passed',
      'stored-content-shown': 'passed',
      // ?tag= over tagList: the created article's array is given a value of its own to filter by.
      'list-filter-honoured': 'passed',
      // articlesCount, the stand-in's total, counts every article the run created.
      'list-total-counted': 'passed',
    });
  });
});
