// The house stays its size (issue 51 item 3, ADR 183): no source file under src/ passes 600 lines
// and no function passes 120 unless ADR 183's allow-list names it with a reason. Measured by
// scripts/house-size.mjs, on the repository's own sources.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { FILE_LIMIT, FUNCTION_LIMIT, measureHouse } from '../../scripts/house-size.mjs';

const REPO = path.resolve(__dirname, '../..');
const ADR = path.join(REPO, 'docs/adr/0183-rooms-on-their-seams.md');

/** The allow-list of ADR 183: `path` for a file, `path#name` for a function. */
function allowList(text: string): Set<string> {
  const begin = text.indexOf('<!-- house-size allow-list: begin -->');
  const end = text.indexOf('<!-- house-size allow-list: end -->');
  assert.ok(begin >= 0 && end > begin, 'ADR 183 holds its allow-list between the two markers');
  const out = new Set<string>();
  for (const line of text.slice(begin, end).split('\n')) {
    const m = /^- `([^`]+)` — \S/.exec(line);
    if (m) out.add(m[1]);
  }
  return out;
}

describe('the size of the house (ADR 183)', () => {
  const allowed = allowList(fs.readFileSync(ADR, 'utf8'));
  const house = measureHouse(REPO);

  it('no file under src/ passes 600 lines unless ADR 183 lists it', (t) => {
    const over = house.longFiles.map((f) => f.file);
    const unlisted = house.longFiles.filter((f) => !allowed.has(f.file)).map((f) => `${f.file} (${f.lines} lines)`);
    assert.deepEqual(unlisted, [], `over ${FILE_LIMIT} lines: cut it on its seams, or list it in ADR 183 with the reason`);
    for (const a of allowed)
      if (!a.includes('#') && !over.includes(a)) t.diagnostic(`ADR 183 lists ${a}, which is no longer over ${FILE_LIMIT} lines`);
  });

  it('no function under src/ passes 120 lines unless ADR 183 lists it', (t) => {
    const over = house.longFunctions.map((f) => `${f.file}#${f.name}`);
    const unlisted = house.longFunctions
      .filter((f) => !allowed.has(`${f.file}#${f.name}`))
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    assert.deepEqual(unlisted, [], `over ${FUNCTION_LIMIT} lines: cut it, or list it in ADR 183 with the reason`);
    for (const a of allowed)
      if (a.includes('#') && !over.includes(a)) t.diagnostic(`ADR 183 lists ${a}, which is no longer over ${FUNCTION_LIMIT} lines`);
  });

  it('counts what it is meant to: a long file, and every kind of long function, by line span', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-house-'));
    try {
      fs.mkdirSync(path.join(root, 'src/a'), { recursive: true });
      const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
      const text = [
        `export function declared() {\n${body(FUNCTION_LIMIT - 2)}\n}`, // exactly the limit: not over
        `export const arrow = () => {\n${body(FUNCTION_LIMIT)}\n};`,
        `class C {\n  method() {\n${body(FUNCTION_LIMIT)}\n  }\n}`,
        `export function short() {\n  return 1;\n}`,
        `export { C };`,
        body(FILE_LIMIT),
      ].join('\n');
      fs.writeFileSync(path.join(root, 'src/a/long.ts'), text + '\n');
      fs.writeFileSync(path.join(root, 'src/a/types.d.ts'), body(FILE_LIMIT + 10) + '\n');
      const h = measureHouse(root);
      assert.deepEqual(
        h.longFiles.map((f) => f.file),
        ['src/a/long.ts'],
      );
      assert.deepEqual(h.longFunctions.map((f) => [f.name, f.lines]).sort(), [
        ['arrow', FUNCTION_LIMIT + 2],
        ['method', FUNCTION_LIMIT + 2],
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
