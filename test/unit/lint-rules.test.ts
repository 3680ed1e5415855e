// The dependency rules of docs/architecture.md are enforced by lint: each forbidden import in
// each layer must be reported, with a message that says why.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { REPO } from '../helpers/fixtures';

const eslint = new ESLint({ cwd: REPO });

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('dependency rules', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['src/graph/query/x.ts', "import * as fs from 'node:fs';", /no Node built-ins/],
    ['src/graph/query/x.ts', "import * as ts from 'typescript';", /Only the builder/],
    ['src/graph/query/x.ts', "import { buildGraph } from '../build/builder';", /pure functions/],
    ['src/graph/io/x.ts', "import * as ts from 'typescript';", /Only the builder/],
    ['src/graph/build/x.ts', "import * as vscode from 'vscode';", /Only src\/host may import vscode/],
    ['src/graph/model.ts', "import * as path from 'node:path';", /no Node built-ins/],
    ['src/cli/x.ts', "import { discover } from '../graph/build/discover';", /one facade/],
    ['src/cli/x.ts', "import type { HostMessage } from '../protocol/messages';", /webview protocol/],
    ['src/host/x.ts', "import * as ts from 'typescript';", /Only the builder/],
    ['src/host/x.ts', "import cytoscape from 'cytoscape';", /webview bundle only/],
    ['webview/explorer/x.ts', "import { buildGraph } from '../../src/graph/index';", /browser sandbox/],
    ['webview/explorer/x.ts', "import * as vscode from 'vscode';", /Only src\/host/],
    ['src/protocol/x.ts', "import * as fs from 'node:fs';", /no Node built-ins/],
  ];
  for (const [file, code, why] of cases) {
    it(`${file}: ${code}`, async () => {
      const found = await messages(file, code + '\nvoid 0;\n');
      assert.ok(found.some((m) => why.test(m)), `expected a restriction matching ${why}, got ${JSON.stringify(found)}`);
    });
  }
  for (const [file, code] of [
    ['src/graph/build/x.ts', "import * as ts from 'typescript';"],
    ['src/host/x.ts', "import { buildGraph } from '../graph';"],
    ['webview/explorer/x.ts', "import type { GraphNode } from '../../src/graph/model';"],
    ['src/graph/query/x.ts', "import type { GraphNode } from '../model';"],
  ]) {
    it(`allows ${file}: ${code}`, async () => {
      assert.deepEqual(await messages(file, code + '\nvoid 0;\n'), []);
    });
  }
});
