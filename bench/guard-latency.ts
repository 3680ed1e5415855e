// The editor guard's latency in a fresh process: `node --import tsx bench/guard-latency.ts <corpus root>`.
// The subject is what runs on each keystroke — guardEdit: parse the buffer, extract its symbols,
// hash their declared signatures, compare with the graph — on a 2,000-line file made of real
// rxjs sources (whole files in sorted path order until 2,000 lines), every symbol guarded (each
// has a consumer in another file, the worst case). The floor is the TypeScript parser alone on
// the same text. Each keystroke changes the text (a character inside a body), as typing does.
// After a warm-up, every call is timed on its own in CPU time (what the bar applies to) and wall
// time. Prints JSON.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { buildGuardIndex, declaredSymbols, guardEdit, type Graph, type GraphEdge, type GraphNode } from '../src/graph';

const GUARD_LINES = 2000;
const WARMUP = 30;
const RUNS = 300;
const REL = 'src/edited.ts';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Whole rxjs files, in order, until the text has at least GUARD_LINES lines; then cut at GUARD_LINES. */
function guardText(root: string): string {
  const lines: string[] = [];
  for (const f of sourceFiles(path.join(root, 'src', 'internal'))) {
    lines.push(...fs.readFileSync(f, 'utf8').split('\n'));
    if (lines.length >= GUARD_LINES) break;
  }
  // Cut at a top-level boundary: the last line before GUARD_LINES that starts a declaration.
  let cut = GUARD_LINES;
  while (cut > 0 && !/^export /.test(lines[cut])) cut--;
  const text = lines.slice(0, cut).join('\n') + '\n';
  const pad = GUARD_LINES - cut;
  return text + Array.from({ length: pad }, (_, i) => `export function pad${i}(x: number): number { return x + ${i}; }`).join('\n') + '\n';
}

function percentiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
}

function time(fn: (i: number) => void): { cpu: ReturnType<typeof percentiles>; wall: ReturnType<typeof percentiles> } {
  for (let i = 0; i < WARMUP; i++) fn(i);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    fn(i);
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpu: percentiles(cpu), wall: percentiles(wall) };
}

function main(): void {
  const text = guardText(process.argv[2]);
  const symbols = declaredSymbols(REL, text);
  // A graph in which every symbol of the file has a consumer elsewhere: all of them are compared.
  const nodes: GraphNode[] = [
    { id: 'file:src/consumer.ts', kind: 'file', label: 'consumer.ts', sourceFile: 'src/consumer.ts' },
    { id: `file:${REL}`, kind: 'file', label: 'edited.ts', sourceFile: REL },
  ];
  const edges: GraphEdge[] = [];
  for (const s of symbols) {
    nodes.push({
      id: s.id,
      kind: s.kind as GraphNode['kind'],
      label: s.label,
      sourceFile: REL,
      line: s.line,
      column: s.column,
      signature: s.signature,
      ...(s.exported ? { exported: true as const } : {}),
    });
    edges.push({
      source: 'file:src/consumer.ts',
      target: s.id,
      relation: 'calls',
      confidence: 'EXACT',
      provenance: 'TYPESCRIPT_CHECKER',
      resolution: 'EXTRACTED',
      evidenceClass: 'DETERMINISTIC',
      confidenceScore: null,
      evidence: { file: 'src/consumer.ts', line: 1, column: 1 },
    });
  }
  const graph: Graph = {
    schemaVersion: 1,
    graphSignature: '000000000000',
    layers: ['calls', 'structural'],
    grammarVersions: {},
    nodes,
    edges,
  };
  const index = buildGuardIndex(graph);
  // A keystroke inside a body: a different text each time, no signature changes.
  const at = text.indexOf('return ');
  const variant = (i: number) => text.slice(0, at) + `/*${i}*/` + text.slice(at);
  let found = 0;
  const guard = time((i) => {
    found += guardEdit(index, REL, variant(i)).length;
  });
  if (found !== 0) throw new Error(`a body edit was reported as ${found} breaking changes`);
  const parse = time((i) => {
    ts.createSourceFile(
      '/' + REL,
      variant(i),
      { languageVersion: ts.ScriptTarget.ESNext, jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors },
      false,
      ts.ScriptKind.TS,
    );
  });
  console.log(
    JSON.stringify({ lines: text.split('\n').length - 1, bytes: text.length, symbols: symbols.length, runs: RUNS, guard, parse }),
  );
}

main();
