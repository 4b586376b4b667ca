// @ts-check
// Issue 21's goals, each beside its reference, from what one `npm run bench` measured: start-up, the
// large document, POST /plants and verify at its defaults. A row is "disturbed" when the machine was busy
// while it was measured; its verdict is then not to be trusted.
import { fmt } from './format.mjs';
import { median } from './stats.mjs';

/** @typedef {import('./types.js').StartupResult} StartupResult */
/** @typedef {import('./types.js').LargeResult} LargeResult */
/** @typedef {import('./types.js').VerifyResult} VerifyResult */
/** @typedef {{ figure: string, value: string, reference: string, ratio: string, goal: string, met: boolean | null, disturbed: boolean }} Goal */

/**
 * @param {{ startup: StartupResult | null, large: LargeResult | null, verify: VerifyResult | null, postPairs?: import('./post-pairs.mjs').Pair[] }} measured
 * @returns {Goal[]}
 */
export function goals({ startup, large, verify, postPairs = [] }) {
  /** @type {Goal[]} */
  const out = [];
  // The start-up and large-document benches always measure the rows asked for here.
  const startupRow = (/** @type {string} */ id) => /** @type {StartupResult['rows'][number]} */ (startup?.rows.find((r) => r.id === id));
  const ms = (/** @type {number} */ n) => `${fmt(n, 0)} ms`;
  if (startup) {
    const version = startupRow('version');
    const node = startupRow('node');
    out.push({
      figure: '`plantstore --version`',
      value: ms(version.medianMs),
      reference: `\`node -e 0\` ${ms(node.medianMs)}`,
      ratio: `${fmt(version.overFloor, 2)}×`,
      goal: '≤ 2×',
      met: version.overFloor <= 2,
      disturbed: startup.disturbed,
    });
    const serve = startupRow('plantstore');
    const floor = startupRow('floor');
    out.push({
      figure: '`serve` (bundled document) to its first answer',
      value: ms(serve.medianMs),
      reference: `bare node:http ${ms(floor.medianMs)}`,
      ratio: `${fmt(serve.overFloor, 2)}×`,
      goal: '≤ 2×',
      met: serve.overFloor <= 2,
      disturbed: startup.disturbed,
    });
  }
  for (const document of large?.documents ?? []) {
    const row = (/** @type {string} */ id) => /** @type {LargeResult['documents'][number]['rows'][number]} */ (document.rows.find((r) => r.id === id));
    const prism = row('prism');
    for (const [id, words, bar] of /** @type {const} */ ([
      ['cold', 'empty cache', 0.6],
      ['warm', 'warm operations cache', 0.5],
    ])) {
      const r = row(id);
      out.push({
        figure: `\`serve\` of ${document.label}, ${words}`,
        value: ms(r.medianMs),
        reference: `\`prism mock\` ${ms(prism.medianMs)}`,
        ratio: `${fmt(r.overPrism, 2)}×`,
        goal: `≤ ${bar}×`,
        met: r.overPrism <= bar,
        disturbed: r.disturbed || prism.disturbed,
      });
    }
  }
  if (postPairs.length > 0) {
    // The median of the pairs' ratios (the rows' own pair alone with --post-pairs 0): each pair ran its
    // two rows back to back (bench/lib/post-pairs.mjs). Disturbed when most of the pairs were.
    const ratio = median(postPairs.map((pair) => pair.ratio));
    const pairs = postPairs.length === 1 ? '' : `; median of ${postPairs.length} pairs`;
    out.push({
      figure: `POST /plants req/s, 32 connections (mean${pairs})`,
      value: fmt(median(postPairs.map((pair) => pair.plantstore)), 0),
      reference: `node:http floor ${fmt(median(postPairs.map((pair) => pair.floor)), 0)}`,
      ratio: `${fmt(ratio, 2)}×${pairs === '' ? '' : ` (pairs ${postPairs.map((pair) => fmt(pair.ratio, 2)).join(', ')})`}`,
      goal: '≥ 0.8×',
      met: ratio >= 0.8,
      disturbed: postPairs.filter((pair) => pair.disturbed).length * 2 > postPairs.length,
    });
  }
  const self = verify?.builds[0];
  if (self)
    out.push({
      figure: `\`verify\` at defaults (\`--runs ${verify.runs} --stateful\`), public Plant Store vs serve`,
      value: `${fmt(self.casesPerSecond, 0)} cases/s`,
      reference: '—',
      ratio: '—',
      goal: '≥ 1,500 cases/s',
      met: self.casesPerSecond >= 1500,
      disturbed: verify.disturbed,
    });
  return out;
}

/** @param {Goal[]} rows */
export function goalsText(rows) {
  const head = ['goal (issue 21)', 'plantstore', 'reference', 'ratio', 'goal', 'verdict'];
  const body = rows.map((g) => [
    g.figure,
    g.value,
    g.reference,
    g.ratio,
    g.goal,
    (g.met === null ? '-' : g.met ? 'MET' : 'NOT MET') + (g.disturbed ? ' (disturbed *)' : ''),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (/** @type {string[]} */ cells) => cells.map((c, i) => (i === 0 || i === 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...body.map(line),
    '* disturbed: the rest of the machine was busy while the row was measured; re-run on a quiet machine.',
  ].join('\n');
}
