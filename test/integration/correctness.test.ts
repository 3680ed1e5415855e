// The correctness bar of docs/graph-format.md ("Confidence") on real code nobody here wrote: every EXACT calls edge confirmed by the
// TypeScript language service (precision 100%), and the EXACT edges covering at least 99% of
// its call hierarchy's direct-call pairs (recall). See test/reference/call-hierarchy.ts for the
// known differences and how each is handled.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraph } from '../../src/graph';
import { corpus } from '../../bench/corpus';
import { compareWithCallHierarchy, type ReferenceReport } from '../reference/call-hierarchy';
import { assertValidGraph } from '../helpers/schema';

function print(name: string, r: ReferenceReport): void {
  const pct = (x: number) => (100 * x).toFixed(2) + '%';
  const lines = [
    `${name}: precision ${pct(r.precision)} (${r.exactPairs} EXACT calls pairs: ${r.confirmedByCallHierarchy} in the call hierarchy, ` +
      `${r.confirmedByDefinition} by go-to-definition, ${r.confirmedByReferences} by find-all-references)`,
    `${name}: recall ${pct(r.recall)} (${r.found} of ${r.referencePairs} direct-call pairs; sites excluded: ${r.excludedSites.nonCall} non-call references, ` +
      `${r.excludedSites.widened} widened through a base or interface, ${r.excludedSites.outsideGraph} outside the graph)`,
    `${name}: declarations the call hierarchy cannot be asked about: ${JSON.stringify(r.unpreparable)}`,
    ...r.falsePositives.slice(0, 20).map((d) => `  NOT CONFIRMED ${d.site} ${d.source} -> ${d.target} (${d.why})`),
    ...r.misses.slice(0, 20).map((d) => `  MISSED ${d.site} ${d.source} -> ${d.target}`),
  ];
  console.log(lines.join('\n'));
}

describe('calls against the TypeScript call hierarchy', () => {
  for (const name of ['rxjs', 'zod'] as const) {
    it(`${name}: precision 100%, recall at least 99%`, () => {
      const c = corpus(name);
      const { graph } = buildGraph({ root: c.root });
      assertValidGraph(JSON.parse(JSON.stringify(graph)));
      const report = compareWithCallHierarchy(c.root, graph);
      print(`${name}@${c.version}`, report);
      assert.ok(report.exactPairs > 500, 'a real code base yields hundreds of proven calls');
      assert.ok(report.referencePairs > 500, 'and the reference lists hundreds of direct calls');
      assert.deepEqual(report.falsePositives, [], 'every EXACT edge is confirmed by the language service');
      assert.equal(report.precision, 1);
      assert.ok(report.recall >= 0.99, `recall ${report.recall} is below 99%`);
    });
  }
});
