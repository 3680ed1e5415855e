// Names that explain themselves (issue 51 item 4, ADR 189): no two source files under src/ share a
// base name unless a convention of the house, checked on the files, makes the difference plain, and
// no two files declare an exported type of one name. Measured by scripts/house-names.mjs.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { measureNames } from '../../scripts/house-names.mjs';

const REPO = path.resolve(__dirname, '../..');

function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-names-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('names that explain themselves (ADR 189)', () => {
  const names = measureNames(REPO);

  it('every base name two files under src/ share is explained by a convention', () => {
    const unexplained = names.sharedBaseNames.filter((s) => !s.explained).map((s) => `${s.name}: ${s.files.map((f) => f.file).join(', ')}`);
    assert.deepEqual(unexplained, [], 'rename one of them so its name says what it is, or follow a convention of ADR 189');
  });

  it('no two files under src/ declare an exported type of the same name', () => {
    assert.deepEqual(
      names.sharedTypeNames.map((t) => `${t.name}: ${t.files.join(', ')}`),
      [],
    );
  });

  it('checks each convention on the files, not on their paths alone', () => {
    const root = tree({
      'src/cli/status.ts': 'export const STATUS_HELP = `Usage: kg status [--graph FILE]`;\n',
      'src/graph/status.ts': 'export const s = 1;\n',
      // In src/cli/ but no command: not explained.
      'src/cli/paths.ts': 'export const p = 1;\n',
      'src/host/paths.ts': 'export const p = 2;\n',
      // A diff file named after a section of the report, and one that is not.
      'src/graph/diff/report-shape.ts': 'export interface DiffBody {\n  edges: number;\n}\n',
      'src/graph/diff/edges.ts': 'export const e = 1;\n',
      'src/graph/indexer/edges.ts': 'export const e = 2;\n',
      'src/graph/diff/markdown.ts': 'export const m = 1;\n',
      'src/graph/indexer/markdown.ts': 'export const m = 2;\n',
      // Facades may be many; a type declared twice is counted, a re-export is not.
      'src/a/index.ts': 'export interface Shape { a: 1 }\n',
      'src/b/index.ts': "export type { Shape } from '../a';\nexport class Shape2 {}\n",
      'src/c/index.ts': 'export type Shape = 1;\n',
    });
    try {
      const n = measureNames(root);
      const verdict = Object.fromEntries(n.sharedBaseNames.map((s) => [s.name, s.explained]));
      assert.deepEqual(verdict, { edges: true, index: true, markdown: false, paths: false, status: true });
      assert.deepEqual(n.sharedTypeNames, [{ name: 'Shape', files: ['src/a/index.ts', 'src/c/index.ts'] }]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
