import { describe, expect, it } from 'vitest';
import type { CheckResult, Finding, VerifyReport } from '../report.js';
import { toCurl } from '../client/curl.js';
import { renderConsoleReport, summaryLine } from './console.js';
import { findingMessage } from './finding.js';
import { renderJson } from './json.js';
import { renderJUnit } from './junit.js';
import { regressionSource } from './regressions.js';
import { escapeXml } from './xml.js';

/** Nasty text for every field a reporter prints: markup, quotes, controls, NUL, a lone surrogate, astral and RTL text. */
const NASTY = `<a href="x">&amp; 'q' \u0000 \u0001 \u001b[31m \r\n \ud800 🌱 \u05d0 \uffff ]]>`;

function finding(overrides: Partial<Finding> = {}): Finding {
  return {
    check: 'positive-acceptance',
    severity: 'failure',
    outcome: 'fail',
    count: 1,
    message: `a valid request was refused ${NASTY}`,
    expected: '200 (accepted)',
    actual: `400 ${NASTY}`,
    expectation: { kind: 'status-class', classes: [2] },
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4010/plants',
      headers: { 'content-type': 'application/json' },
      body: `{"name":${JSON.stringify(NASTY)},"id":1}`,
      label: 'valid',
    },
    seed: 42,
    path: 'valid:3:0',
    shrunk: true,
    ...overrides,
  };
}

function result(id: CheckResult['id'], status: CheckResult['status'], findings: Finding[] = []): CheckResult {
  return { id, title: id, description: `${id} description`, status, cases: status === 'skipped' ? 0 : 12, findings };
}

const REPORT: VerifyReport = {
  target: 'http://127.0.0.1:4010',
  spec: '/tmp/plant-store.yaml',
  seed: 42,
  coverage: [],
  hints: [],
  runs: 100,
  casesRun: 1234,
  durationMs: 1500,
  casesPerSecond: 1000,
  replayOptions: { token: true, expectUniqueIds: true, stateful: false, tokensValidated: false, strict: false },
  shrinkMs: 300,
  ok: false,
  checks: [
    result('positive-acceptance', 'failed', [finding()]),
    result('status-conformance', 'warned', [
      finding({ check: 'status-conformance', severity: 'warning', outcome: 'warn', message: `401 is not declared ${NASTY}` }),
    ]),
    result('no-server-errors', 'passed'),
    result('stateful-model', 'skipped'),
  ],
};

/**
 * A small but strict XML 1.0 well-formedness check: only legal characters, every & an entity,
 * no < inside text or attributes, attributes quoted, tags balanced, one root.
 */
function assertWellFormedXml(xml: string): void {
  const illegal = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(xml);
  expect(illegal, `illegal XML character U+${illegal?.[0].charCodeAt(0).toString(16)}`).toBeNull();
  const badAmp = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(xml);
  expect(badAmp, `bare & at ${badAmp?.index}`).toBeNull();
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  let match: RegExpExecArray | null;
  while ((match = token.exec(body)) !== null) {
    const [, closing, name, , selfClosing, text, stray] = match;
    if (stray !== undefined) throw new Error(`stray < at ${match.index}: ${body.slice(match.index, match.index + 40)}`);
    if (text !== undefined) {
      if (stack.length === 0 && text.trim() !== '') throw new Error(`text outside the root: ${text}`);
      continue;
    }
    if (closing) {
      expect(stack.pop(), `</${name}>`).toBe(name);
    } else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name as string);
    } else if (stack.length === 0) roots += 1;
  }
  expect(token.lastIndex === 0 || token.lastIndex === body.length).toBe(true);
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

describe('escapeXml', () => {
  it('escapes markup and writes characters XML cannot carry as \\uXXXX', () => {
    expect(escapeXml(`<&>"'`)).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(escapeXml('a\u0000b\u001bc')).toBe('a\\u0000b\\u001bc');
    expect(escapeXml('\ud800x')).toBe('\\ud800x');
    expect(escapeXml('🌱\t\n')).toBe('🌱\t\n');
    expect(escapeXml('\r')).toBe('&#13;');
  });
});

describe('JUnit', () => {
  const xml = renderJUnit(REPORT, new Date('2026-01-02T03:04:05Z'));

  it('is well-formed XML even with control characters, NUL and lone surrogates in findings', () => {
    assertWellFormedXml(xml);
  });

  it('has one testcase per check, a failure per failing finding, warnings in system-out, skipped checks skipped', () => {
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toMatch(/<testsuites name="plantstore verify" tests="4" failures="1" errors="0" skipped="1"/);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<failure message="a valid request was refused &lt;a href=&quot;x&quot;&gt;/);
    // The body is not plain ASCII, so the command pipes it in from printf.
    expect(xml).toMatch(/curl:\nprintf &apos;[^\n]*&apos; \| curl -sS -i -X &apos;POST&apos;/);
    expect(xml).toMatch(/<system-out>12 requests judged.\n\nWARNING: 401 is not declared/);
    expect(xml).toMatch(/<skipped message="stateful-model judged no request in this run"\/>/);
    expect(xml).toMatch(/<property name="seed" value="42"\/>/);
    expect(xml).toMatch(/timestamp="2026-01-02T03:04:05"/);
  });
});

describe('console', () => {
  it('prints the table, each finding with expected, actual, replay and curl, and a summary', () => {
    const text = renderConsoleReport(REPORT);
    expect(text).toMatch(/positive-acceptance\s+✗ failed\s+12\s+1/);
    expect(text).toMatch(/stateful-model\s+- skipped\s+0\s+0/);
    expect(text).toMatch(/1\. FAILURE positive-acceptance: a valid request was refused/);
    expect(text).toMatch(/2\. WARNING status-conformance/);
    expect(text).toMatch(/expected: 200 \(accepted\)/);
    // The flags that shaped the run go with it: the finding replays only under them. The token stays a variable.
    expect(text).toMatch(
      /replay: {3}plantstore verify --target http:\/\/127\.0\.0\.1:4010 --token "\$TOKEN" --expect-unique-ids --seed 42 --replay valid:3:0 \(shrunk\)/,
    );
    expect(text).toMatch(/curl:\n {5}printf '[^\n]*' \| curl -sS -i -X 'POST'/);
    expect(summaryLine(REPORT)).toBe(
      'DOES NOT CONFORM: 4 checks, 1 passed, 1 failed, 1 warned, 1 skipped; 1234 requests in 1.2 s (1000 cases/s), shrinking 0.3 s, seed 42',
    );
  });

  it('leads with the verdict, what failed and what was left in the target, then the findings; coverage is one line per operation unless asked', () => {
    const coverage: VerifyReport['coverage'] = [
      { operation: 'createPlant (POST /plants)', status: '201', check: 'positive-acceptance', cases: 12 },
      { operation: 'createPlant (POST /plants)', status: '201', check: 'no-server-errors', cases: 20 },
      { operation: 'createPlant (POST /plants)', status: '-', check: 'auth-enforced', cases: 0, skipped: 'not applicable' },
    ];
    const leftBehind = [{ resource: 'plants', reason: 'the document has no delete the run can send', count: 2, ids: ['7', '8'] }];
    const text = renderConsoleReport({ ...REPORT, coverage, leftBehind });
    const lines = text.split('\n');
    expect(lines[3]).toMatch(/^DOES NOT CONFORM/);
    expect(lines[4]).toBe('failed: positive-acceptance (1 finding)');
    expect(lines[5]).toBe('warned: status-conformance (1 finding)');
    expect(lines[6]).toBe('left in the target: 2 items of plants (the document has no delete the run can send): 7, 8');
    expect(text.indexOf('1. FAILURE')).toBeLessThan(text.indexOf('  check '));
    expect(text).toContain('  createPlant (POST /plants): 20 answers (201: 20), judged by 2 of 3 checks');
    expect(text).not.toMatch(/auth-enforced\s+skipped: not applicable/);
    expect(renderConsoleReport({ ...REPORT, coverage }, { color: false, fullCoverage: true })).toMatch(/auth-enforced\s+skipped: not applicable/);
  });

  it('uses colour only when asked', () => {
    expect(renderConsoleReport(REPORT)).not.toMatch(/\u001b\[3\dm/);
    expect(renderConsoleReport(REPORT, { color: true })).toMatch(/\u001b\[31m/);
  });
});

describe('JSON', () => {
  it("is the report with its text as users see it: the replay flags, each finding's message and curl", () => {
    const { replayOptions, checks, ...rest } = REPORT;
    void replayOptions;
    expect(JSON.parse(renderJson(REPORT))).toEqual({
      ...rest,
      replayFlags: '--token "$TOKEN" --expect-unique-ids',
      checks: checks.map(({ findings, ...check }) => ({
        ...check,
        findings: findings.map(({ outcome, count, ...rest }) => ({
          ...rest,
          message: findingMessage({ ...rest, outcome, count }),
          curl: toCurl(rest.request),
        })),
      })),
    });
  });
});

describe('finding messages', () => {
  it('say how many requests showed the problem, and when --strict made a warning fail', () => {
    const warning = finding({ outcome: 'warn', severity: 'failure', message: 'm', count: 3 });
    expect(findingMessage(warning)).toBe('(a warning, failed by --strict) m [3 cases like this]');
    expect(findingMessage({ ...warning, severity: 'warning', count: 1 })).toBe('m');
  });
});

describe('regression files', () => {
  it('replay every step exactly and assert the expectation', () => {
    const before = { method: 'POST', url: 'http://127.0.0.1:4010/plants', headers: { a: 'b' }, body: '{"name":"x","id":4611686018427387904}', label: 'first' };
    const source = regressionSource(REPORT, finding({ before: [before] }), new Date('2026-01-02T00:00:00Z'));
    expect(source).toMatch(/"path": "\/plants"/);
    expect(source).toContain(JSON.stringify(finding().request.body));
    expect(source).toContain('"body": "{\\"name\\":\\"x\\",\\"id\\":4611686018427387904}"');
    // Only data and the runtime beside it: the runtime skips without CONTRACT_TARGET and asserts the expectation.
    expect(source).toMatch(/^import \{ regressionTest, type Expectation, type Step \} from '\.\/regression-runtime\.js';$/m);
    expect(source).toMatch(/const EXPECTATION: Expectation = \{\s*"kind": "status-class",\s*"classes": \[\s*2\s*\]\s*\};/);
    expect(source).toMatch(/^regressionTest\("positive-acceptance: a valid request was refused .*", STEPS, EXPECTATION\);$/m);
    expect(source).not.toMatch(/^(?:async )?function /m);
    expect(source).not.toMatch(/\*\/(?![\s\S]*\/\*\*)[\s\S]*\*\//); // the header comment cannot be closed early
  });
});

describe('the heading', () => {
  it("is named after the document's own title, in the console and JUnit", () => {
    const museum: VerifyReport = { ...REPORT, title: 'Redocly Museum API' };
    expect(renderConsoleReport(museum).split('\n')[0]).toBe('Redocly Museum API conformance of http://127.0.0.1:4010');
    expect(renderJUnit(museum)).toMatch(/<testsuite name="Redocly Museum API conformance of http:\/\/127\.0\.0\.1:4010"/);
    expect(renderConsoleReport(museum)).not.toMatch(/Plant Store/);
  });
});
