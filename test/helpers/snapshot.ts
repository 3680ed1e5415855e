// Golden snapshots a human can read: graph.json plus a listing that says, per edge, where it
// was seen and what it claims. A mismatch prints a diff and the one command that accepts it.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { Graph } from '../../src/graph/model';
import { SNAPSHOTS } from './fixtures';

const UPDATE_COMMAND = 'npm run snapshots:update';

export function listing(graph: Graph): string {
  const out: string[] = [];
  out.push(`layers: ${graph.layers.join(', ') || '(none)'}`);
  out.push(`signature: ${graph.graphSignature}`);
  if (graph.unresolved) out.push(`unresolved (counted): ${JSON.stringify(graph.unresolved)}`);
  for (const d of graph.diagnostics ?? []) out.push(`diagnostic: ${d.path}: ${d.reason}`);
  out.push('', `nodes (${graph.nodes.length}):`);
  for (const n of graph.nodes) {
    const where = n.line !== undefined ? ` @ ${n.sourceFile}:${n.line}:${n.column}` : '';
    const extra = [
      n.exported ? 'exported' : '',
      n.declarationCount ? `×${n.declarationCount}` : '',
      n.symbolKinds ? `kinds=${n.symbolKinds.join('+')}` : '',
    ].filter(Boolean);
    out.push(`  ${n.kind.padEnd(10)} ${n.id}${where}${extra.length ? '  (' + extra.join(', ') + ')' : ''}`);
  }
  out.push('', `edges (${graph.edges.length}):`);
  for (const e of graph.edges) {
    const at = e.evidence ? `${e.evidence.file}:${e.evidence.line}:${e.evidence.column}` : '(derived)';
    const why = [
      e.confidence,
      e.provenance,
      e.resolution === 'AMBIGUOUS' ? 'AMBIGUOUS' : '',
      e.reason ?? '',
      e.context ? `"${e.context}"` : '',
    ]
      .filter(Boolean)
      .join(' ');
    out.push(`  ${at.padEnd(24)} ${e.source} --${e.relation}--> ${e.target}  [${why}]`);
  }
  return out.join('\n') + '\n';
}

/**
 * A unified line diff (jsdiff): an order change shows as lines removed and added, which a set
 * difference of lines would hide.
 */
export function lineDiff(expected: string, actual: string): string {
  const patch = createTwoFilesPatch('expected', 'actual', expected, actual, '', '', { context: 2 });
  const lines = patch.split('\n').slice(2);
  return lines.slice(0, 120).join('\n') + (lines.length > 120 ? `\n… ${lines.length - 120} more lines` : '');
}

/** Compares (or, with KG_UPDATE_SNAPSHOTS=1, writes) the snapshot files of one case. */
export function matchSnapshot(name: string, files: Record<string, string>): void {
  const dir = path.join(SNAPSHOTS, name);
  if (process.env.KG_UPDATE_SNAPSHOTS === '1') {
    fs.mkdirSync(dir, { recursive: true });
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
    return;
  }
  for (const [f, text] of Object.entries(files)) {
    const p = path.join(dir, f);
    assert.ok(fs.existsSync(p), `missing snapshot ${path.relative(process.cwd(), p)}; create it with: ${UPDATE_COMMAND}`);
    const expected = fs.readFileSync(p, 'utf8');
    if (expected !== text) {
      assert.fail(
        `snapshot ${name}/${f} differs (unified diff, - expected, + actual):\n${lineDiff(expected, text)}\n\nIf the change is intended, accept it with: ${UPDATE_COMMAND}`,
      );
    }
  }
}
