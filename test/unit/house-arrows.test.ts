// No arrow back up (issue 51, ADR 193): no two rooms of src/ import each other, directly or round
// a circle. A room is a folder; the files directly in src/ and src/graph/ are rooms of their own.
// Measured by scripts/house-arrows.mjs.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { roomArrows, roomCircles } from '../../scripts/house-arrows.mjs';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

const REPO = path.resolve(__dirname, '../..');

function tree(files: Record<string, string>): string {
  const root = tempDir('kg-arrows-');
  writeTree(root, files);
  return root;
}

describe('no arrow back up between the rooms of src/ (ADR 193)', () => {
  after(removeTempDirs);

  it('the house has no circle of rooms', () => {
    const arrows = roomArrows(REPO);
    assert.ok(arrows.length > 50, `the measure reads the house (${arrows.length} arrows)`);
    assert.deepEqual(roomCircles(arrows), [], 'two rooms that import each other: move what both need into a room below them');
  });

  it('finds the circle the doctor and io/ drew (session 28) and the one the rationale layer drew', () => {
    const root = tree({
      'src/graph/doctor.ts': "import { visible } from './io/display';\nexport const rules = visible;\n",
      'src/graph/io/display.ts': 'export const visible = 1;\n',
      'src/graph/io/examine.ts': "import { rules } from '../doctor';\nexport const memo = rules;\n",
      'src/graph/indexer/compiler/builder.ts': "import { start } from '../rationale/rationale';\nexport const b = start;\n",
      'src/graph/indexer/compiler/extract.ts': 'export const evidenceAt = 1;\n',
      'src/graph/indexer/rationale/rationale.ts': "import { evidenceAt } from '../compiler/extract';\nexport const start = evidenceAt;\n",
    });
    assert.deepEqual(roomCircles(roomArrows(root)), [
      ['src/graph/doctor', 'src/graph/io'],
      ['src/graph/indexer/compiler', 'src/graph/indexer/rationale'],
    ]);
  });

  it('a circle round three rooms is one circle; an erased type-only import draws no arrow', () => {
    const root = tree({
      'src/a/one.ts': "import { two } from '../b/two';\nexport const one = two;\n",
      'src/b/two.ts': "import { three } from '../c';\nexport const two = three;\n",
      'src/c/index.ts': "import {\n  one,\n} from '../a/one';\nexport const three = one;\n",
      'src/host/activate.ts': "import { panel } from './panel/index';\nexport const a = panel;\n",
      'src/host/graph-access.ts': 'export interface GraphAccess { x: number }\n',
      'src/host/panel/index.ts':
        "import type { GraphAccess } from '../graph-access';\nexport type { GraphAccess as Access } from '../graph-access';\nexport const panel = (g: GraphAccess) => g.x;\n",
    });
    assert.deepEqual(roomCircles(roomArrows(root)), [['src/a', 'src/b', 'src/c']]);
    fs.writeFileSync(
      path.join(root, 'src/host/panel/index.ts'),
      "import { GraphAccess } from '../graph-access';\nexport const panel = GraphAccess;\n",
    );
    assert.deepEqual(roomCircles(roomArrows(root)), [
      ['src/a', 'src/b', 'src/c'],
      ['src/host', 'src/host/panel'],
    ]);
  });
});
