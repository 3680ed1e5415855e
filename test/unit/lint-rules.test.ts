// The dependency rules of docs/architecture.md are enforced by lint: each forbidden import in
// each layer must be reported, with a message that says why.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
import { REPO } from '../helpers/fixtures';

// The import rules need no types: lint the snippets without the type-aware project service (the
// files do not exist, so the project could not hold them anyway).
const eslint = new ESLint({
  cwd: REPO,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('dependency rules', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['src/graph/query/x.ts', "import * as fs from 'node:fs';", /no Node built-ins/],
    ['src/graph/query/x.ts', "import * as ts from 'typescript';", /Only the compiler side/],
    ['src/graph/query/x.ts', "import { buildGraph } from '../indexer/compiler/builder';", /pure functions/],
    ['src/graph/io/x.ts', "import * as ts from 'typescript';", /Only the compiler side/],
    ['src/graph/diff/x.ts', "import * as fs from 'node:fs';", /no Node built-ins/],
    ['src/graph/diff/x.ts', "import { loadGraphFile } from '../io/load';", /diff engine is pure/],
    ['src/graph/indexer/compiler/x.ts', "import * as vscode from 'vscode';", /Only src\/host may import vscode/],
    ['src/graph/model.ts', "import * as path from 'node:path';", /no Node built-ins/],
    ['src/cli/x.ts', "import { discover } from '../graph/indexer/compiler/discover';", /one facade/],
    ['src/cli/x.ts', "import type { HostMessage } from '../protocol/messages';", /webview protocol/],
    ['src/graph/query/x.ts', "import type { BuildEvent } from '../../protocol/build-events';", /contracts between processes/],
    ['src/host/x.ts', "import * as ts from 'typescript';", /Only the compiler side/],
    // Faces never import faces (ADR 175): what two faces share lives in a room that imports none.
    ['src/mcp/x.ts', "import { runBuild } from '../cli/build';", /Faces never import faces/],
    ['src/mcp/x.ts', "import { EditorSession } from '../host/lm-tools';", /Faces never import faces/],
    ['src/host/x.ts', "import { buildOnServer } from '../cli/server-client';", /Faces never import faces/],
    ['src/host/x.ts', "import { sharedArgs } from '../mcp/answer';", /Faces never import faces/],
    ['src/host/panel/x.ts', "import { resolveRef } from '../../cli/git';", /Faces never import faces/],
    ['src/extension.ts', "import { run } from './cli/run';", /Faces never import faces/],
    ['src/cli/x.ts', "import { serveStdio } from '../mcp/stdio-server';", /Faces never import faces/],
    ['src/cli/x.ts', "import { activate } from '../host/activate';", /Faces never import faces/],
    // The one exception is narrow: kg mcp may start the MCP face's server, and nothing else of it.
    ['src/cli/mcp.ts', "import { LineTransport } from '../mcp/transport';", /Faces never import faces/],
    ['src/agent/x.ts', "import { createMcpServer } from '../mcp/stdio-server';", /Faces never import faces/],
    ['src/agent/x.ts', "import { runCheck } from '../cli/check';", /Faces never import faces/],
    ['src/build-server/x.ts', "import { EXIT } from '../cli/streams';", /Faces never import faces/],
    ['src/git/x.ts', "import { typedRef } from '../host/typed-ref';", /Faces never import faces/],
    ['src/git/x.ts', "import * as vscode from 'vscode';", /Only src\/host may import vscode/],
    ['src/agent/x.ts', "import { matchIds } from '../graph/query/search-ids';", /one facade/],
    ['src/mcp/x.ts', "import * as vscode from 'vscode';", /Only src\/host may import vscode/],
    ['src/mcp/x.ts', "import { matchIds } from '../graph/query/search-ids';", /one facade/],
    ['src/host/x.ts', "import cytoscape from 'cytoscape';", /webview bundle only/],
    ['webview/explorer/x.ts', "import { buildGraph } from '../../src/graph/index';", /browser sandbox/],
    ['webview/explorer/x.ts', "import * as vscode from 'vscode';", /Only src\/host/],
    ['src/protocol/x.ts', "import * as fs from 'node:fs';", /no Node built-ins/],
    // The compiler boundary: what `kg status` loads never reaches the compiler.
    ['src/graph/status.ts', "import * as ts from 'typescript';", /Only the compiler side/],
    ['src/graph/status.ts', "import { discover } from './indexer/compiler/discover';", /status, io, doctor and queries/],
    ['src/graph/indexer/files/x.ts', "import * as ts from 'typescript';", /Only the compiler side/],
    ['src/graph/indexer/files/x.ts', "import { extractFile } from '../compiler/extract';", /never import the compiler side/],
    ['src/graph/indexer/files/x.ts', "import { parseMarkdown } from '../rationale/markdown';", /never import the compiler side/],
    // Not even a type: what the manifest persists lives in indexer/facts.ts.
    ['src/graph/indexer/files/x.ts', "import type { ImportRef } from '../compiler/extract';", /not even its types/],
    ['src/graph/indexer/facts.ts', "import type { Project } from './compiler/discover';", /not even its types/],
    // TypeScript 7 behind one module (ADR 113): not even the rest of the compiler side, tests or the bench.
    [
      'src/graph/indexer/compiler/checker.ts',
      "import { API } from 'typescript7/unstable/sync';",
      /Only src\/graph\/indexer\/compiler\/native-api.ts/,
    ],
    ['src/cli/x.ts', "import { API } from 'typescript7/unstable/sync';", /Only src\/graph\/indexer\/compiler\/native-api.ts/],
    ['test/unit/x.test.ts', "import * as ts7 from 'typescript7';", /Only src\/graph\/indexer\/compiler\/native-api.ts/],
    ['bench/x.ts', "import { SyntaxKind } from 'typescript7/unstable/ast';", /Only src\/graph\/indexer\/compiler\/native-api.ts/],
    // 7.1's alias too (ADR 186), and the rest of the native route, which takes its types from native-api.ts.
    [
      'src/graph/indexer/compiler/native-checker.ts',
      "import { API } from 'typescript71/sync';",
      /Only src\/graph\/indexer\/compiler\/native-api.ts/,
    ],
    ['src/cli/x.ts', "import { version } from 'typescript71';", /Only src\/graph\/indexer\/compiler\/native-api.ts/],
  ];
  for (const [file, code, why] of cases) {
    it(`${file}: ${code}`, async () => {
      const found = await messages(file, code + '\nvoid 0;\n');
      assert.ok(
        found.some((m) => why.test(m)),
        `expected a restriction matching ${why}, got ${JSON.stringify(found)}`,
      );
    });
  }
  for (const [file, code] of [
    ['src/graph/indexer/compiler/x.ts', "import * as ts from 'typescript';"],
    ['src/graph/indexer/compiler/native-api.ts', "import { API } from 'typescript7/unstable/sync';"],
    ['src/graph/indexer/compiler/native-api.ts', "import { API } from 'typescript71/sync';"],
    ['src/graph/indexer/rationale/x.ts', "import * as ts from 'typescript';"],
    ['src/graph/indexer/files/x.ts', "import type { ImportRef } from '../facts';"],
    ['src/graph/status.ts', "import { walk } from './indexer/files/walk';"],
    ['src/host/x.ts', "import { buildGraph } from '../graph';"],
    ['src/mcp/x.ts', "import { Server } from '@modelcontextprotocol/sdk/server/index.js';"],
    ['src/mcp/x.ts', "import { answerQueryTool } from '../agent/answer';"],
    ['src/cli/mcp.ts', "import { MCP_HELP, serveStdio } from '../mcp/stdio-server';"],
    ['src/host/x.ts', "import { sharedArgs } from '../agent/answer';"],
    ['src/host/x.ts', "import { buildOnServer } from '../build-server/client';"],
    ['src/host/x.ts', "import { resolveRef } from '../git/plumbing';"],
    ['src/cli/x.ts', "import { buildOnServer } from '../build-server/client';"],
    ['src/agent/x.ts', "import { answerQuery } from '../graph';"],
    ['webview/explorer/x.ts', "import type { GraphNode } from '../../src/graph/model';"],
    ['src/graph/query/x.ts', "import type { GraphNode } from '../model';"],
  ]) {
    it(`allows ${file}: ${code}`, async () => {
      assert.deepEqual(await messages(file, code + '\nvoid 0;\n'), []);
    });
  }
});

describe('one module owns where the graph lives', () => {
  const located = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  it('refuses the graph folder spelled by hand outside src/graph/io/graph-location.ts', async () => {
    // What src/cli/check.ts did before it used defaultGraphFile (issue 22).
    const found = await located(
      'src/cli/x.ts',
      "import * as path from 'node:path';\nexport const f = path.join('r', '.knowledge-graph', 'graph.json');\n",
    );
    assert.ok(
      found.some((m) => /graph-location\.ts/.test(m)),
      JSON.stringify(found),
    );
    assert.equal((await located('src/host/x.ts', 'export const f = `.knowledge-graph/graph.json`;\n')).length, 1);
  });
  it('allows it where it is defined, and in prose', async () => {
    assert.deepEqual(await located('src/graph/io/graph-location.ts', "export const GRAPH_DIR = '.knowledge-graph';\n"), []);
    assert.deepEqual(await located('src/cli/x.ts', "export const help = 'reads ./.knowledge-graph/graph.json';\n"), []);
  });
});

describe('one module owns the id of an unresolved target', () => {
  const spelled = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  it("refuses 'unresolved:' spelled by hand outside src/graph/model.ts (ADR 175)", async () => {
    // What src/host/panel/graph-answers.ts and src/graph/diff/report.ts did before they used UNRESOLVED_PREFIX.
    const found = await spelled('src/host/panel/x.ts', "export const UNRESOLVED = 'unresolved:';\n");
    assert.ok(
      found.some((m) => /UNRESOLVED_PREFIX/.test(m)),
      JSON.stringify(found),
    );
    assert.equal((await spelled('src/graph/diff/x.ts', "export const n = (t: string) => t.slice('unresolved:'.length);\n")).length, 1);
    assert.equal((await spelled('src/graph/io/graph-location.ts', 'export const u = (n: string) => `unresolved:${n}`;\n')).length, 1);
  });
  it('allows it where it is defined, in prose, and keeps the graph-folder rule there', async () => {
    assert.deepEqual(await spelled('src/graph/model.ts', "export const UNRESOLVED_PREFIX = 'unresolved:';\n"), []);
    assert.deepEqual(await spelled('src/cli/x.ts', "export const help = 'an unresolved: target is a name';\n"), []);
    assert.equal((await spelled('src/graph/model.ts', "export const f = '.knowledge-graph/graph.json';\n")).length, 1);
  });
});
