// Lint, and the dependency rules of docs/architecture.md: each restriction says why it exists.

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules.filter((m) => !m.startsWith('_')), ...builtinModules.map((m) => `node:${m}`)];

const NO_NODE = {
  group: nodeBuiltins,
  message: 'This code also runs outside Node (the browser, or pure query code over an in-memory graph): no Node built-ins here.',
};
const NO_VSCODE = {
  group: ['vscode'],
  message: 'Only src/host may import vscode: the engine, CLI, protocol and webview must run and be tested without an editor.',
};
const NO_TYPESCRIPT = {
  group: ['typescript'],
  message:
    'Only the compiler side of the indexer (src/graph/indexer/compiler, indexer/rationale) may load the TypeScript compiler: everything else works from graph.json or plain files (docs/architecture.md, "The compiler boundary").',
};
const FILES_NO_COMPILER = {
  group: ['../compiler/*', '../rationale/*', '../compiler', '../rationale', './compiler/*', './rationale/*'],
  message:
    'indexer/files (walk, gitignore, read, manifest) and the indexer floor (edges, facts) are what `kg status` and the extension load to tell staleness: they never import the compiler side, not even its types — a type the manifest persists lives in indexer/facts.ts (docs/architecture.md, "The compiler boundary").',
};
const OUTSIDE_INDEXER_NO_COMPILER = {
  group: ['**/indexer/compiler/*', '**/indexer/rationale/*'],
  allowTypeImports: true,
  message:
    'Outside the indexer only src/graph/index.ts loads the compiler side, lazily (loadEngine): status, io, doctor and queries must start without the compiler (docs/architecture.md, "The compiler boundary").',
};
const NO_CYTOSCAPE = {
  group: ['cytoscape', 'cytoscape-*'],
  message: 'Cytoscape belongs to the webview bundle only.',
};
const NO_PROTOCOL = {
  group: ['**/protocol/*', '**/protocol'],
  message: 'The engine answers questions; the contracts between processes (src/protocol) belong to the faces that speak them.',
};
const NO_WEBVIEW_PROTOCOL = {
  group: ['**/protocol/messages', '**/protocol/messages-schema'],
  message: 'The webview protocol is shared by src/host and webview/ only; the CLI speaks only its own contracts (src/protocol/build-*).',
};
const NO_HOST_OR_CLI = {
  group: ['**/host/*', '**/cli/*', '**/extension', '**/webview/**'],
  message: 'Dependencies point inwards: the engine never imports the CLI, the extension host or the webview.',
};
// Faces never import faces (ADR 175): each face speaks to one audience, and what two of them share
// lives in a room of its own that imports no face.
const FACES_APART_WHY =
  "Faces never import faces: src/cli (kg), src/mcp (the stdio MCP server) and src/host (the editor) each speak to one audience; what two of them share lives in a room of its own that imports no face — src/agent (the agents' answers), src/build-server (its client and limits), src/git (the plumbing) — ADR 175.";
const facesApart = (...group) => ({ group: [...group, '**/extension', '**/webview/**'], message: FACES_APART_WHY });
const CLI_APART = facesApart('**/host/*', '**/host/**', '**/mcp/*');
const MCP_APART = facesApart('**/host/*', '**/host/**', '**/cli/*');
const HOST_APART = facesApart('**/cli/*', '**/mcp/*');
const ROOM_APART = facesApart('**/host/*', '**/host/**', '**/cli/*', '**/mcp/*');
/** The one exception: src/cli/mcp.ts is where `kg mcp` starts the MCP face, so it imports that face's server. */
const CLI_MCP_COMMAND_APART = facesApart('**/host/*', '**/host/**', '**/mcp/*', '!**/mcp/stdio-server');
const ENGINE_VIA_FACADE = {
  group: [
    '**/graph/indexer/**',
    '**/graph/io/*',
    '**/graph/query/*',
    '**/graph/store/*',
    '**/graph/doctor/*',
    '**/graph/commit/*',
    '**/graph/errors',
  ],
  message: 'Outside the engine, use its one facade (src/graph/index.ts) or src/graph/model.ts, so the engine can change inside.',
};
const QUERY_PURE = {
  group: ['../indexer/**', '../io/*', '../index', '../doctor/*', '../commit/*', '../../*'],
  message: 'Queries are pure functions over an indexed graph: no file system, no compiler, no builder — only the model (and ids).',
};
const DIFF_PURE = {
  group: ['../indexer/**', '../io/*', '../index', '../doctor/*', '../commit/*', '../query/*', '../governance/*', '../status', '../../*'],
  message: 'The diff engine is pure: two parsed graphs in, one report out — no file system, no compiler, no builder (ADR 104).',
};
const PICTURE_PURE = {
  group: [
    '../indexer/**',
    '../io/*',
    '../index',
    '../doctor/*',
    '../commit/*',
    '../query/*',
    '../diff/*',
    '../governance/*',
    '../status',
    '../../*',
  ],
  message:
    'Pictures are pure: a picture in, text out — no file system, no graph loading, no queries (the CLI and the diff comment hand them what to draw; ADR 156).',
};
const WEBVIEW_NO_ENGINE = {
  group: [
    '**/src/graph/index',
    '**/src/graph/indexer/**',
    '**/src/graph/io/*',
    '**/src/graph/doctor/*',
    '**/src/graph/commit/*',
    '**/src/graph/query/*',
    '**/src/host/*',
    '**/src/cli/*',
  ],
  message: 'The webview runs in a browser sandbox: it may share only src/graph/model.ts and src/protocol with the host.',
};

// One module owns where the graph lives (docs/cli.md, "Where the graph lives").
const GRAPH_DIR_HOME = 'src/graph/io/graph-location.ts';
const GRAPH_DIR_SPELLED = {
  selector: 'Literal[value=/^\\.knowledge-graph(\\/|$)/], TemplateElement[value.raw=/^\\.knowledge-graph(\\/|$)/]',
  message: 'Where the graph lives is src/graph/io/graph-location.ts (GRAPH_DIR, defaultGraphFile): use it, do not spell the path again.',
};
// One module owns the id of an unresolved call target (docs/graph-format.md).
const UNRESOLVED_HOME = 'src/graph/model.ts';
const UNRESOLVED_SPELLED = {
  selector: 'Literal[value=/^unresolved:/], TemplateElement[value.raw=/^unresolved:/]',
  message:
    "An unresolved target's id starts with UNRESOLVED_PREFIX (src/graph/model.ts; isUnresolvedId tests it): use it, do not spell 'unresolved:' again.",
};
/**
 * The one file that still spells it: src/graph/query/affected-tests.ts, reworked by a change in
 * flight when this rule came (ADR 175); it drops the exception when it lands. (The store's
 * migrations spell it inside their SQL, which no literal rule sees: a migration is the text the
 * databases ran.)
 */
const UNRESOLVED_SPELLED_BY_HAND = ['src/graph/query/affected-tests.ts'];
const spelledOnce = (...rules) => ({ 'no-restricted-syntax': ['error', ...rules] });

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      'test/fixtures/**',
      'test/e2e/workspaces/**',
      '.e2e-artifacts/**',
      '.demo/**',
      'scratch/**',
      '.knowledge-graph/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        performance: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules where a dropped promise is a lost error or a race: the engine, the CLI, the
    // extension host, the webviews, and the code that drives them in tests and benchmarks.
    files: ['src/**/*.ts', 'webview/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test runs what describe/it return itself; awaiting them would serialise nothing.
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The engine reports through an injected sink (BuildSink); it never writes to the console.
    files: ['src/graph/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  { files: ['src/graph/**/*.ts'], rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI) },
  {
    files: ['src/graph/**/*.ts'],
    ignores: ['src/graph/indexer/**', 'src/graph/index.ts'],
    rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI, NO_TYPESCRIPT, OUTSIDE_INDEXER_NO_COMPILER),
  },
  {
    files: ['src/graph/indexer/files/**/*.ts', 'src/graph/indexer/*.ts'],
    rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI, NO_TYPESCRIPT, FILES_NO_COMPILER),
  },
  {
    files: ['src/graph/model.ts', 'src/graph/ids.ts'],
    rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI, NO_TYPESCRIPT, NO_NODE),
  },
  { files: ['src/graph/query/**/*.ts'], rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_TYPESCRIPT, NO_NODE, QUERY_PURE) },
  {
    files: ['src/graph/diff/**/*.ts'],
    rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI, NO_TYPESCRIPT, NO_NODE, DIFF_PURE),
  },
  {
    files: ['src/graph/picture/**/*.ts'],
    rules: restrict(NO_VSCODE, NO_PROTOCOL, NO_CYTOSCAPE, NO_HOST_OR_CLI, NO_TYPESCRIPT, NO_NODE, PICTURE_PURE),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(NO_VSCODE, NO_WEBVIEW_PROTOCOL, NO_CYTOSCAPE, NO_TYPESCRIPT, ENGINE_VIA_FACADE, CLI_APART),
  },
  {
    files: ['src/cli/mcp.ts'],
    rules: restrict(NO_VSCODE, NO_WEBVIEW_PROTOCOL, NO_CYTOSCAPE, NO_TYPESCRIPT, ENGINE_VIA_FACADE, CLI_MCP_COMMAND_APART),
  },
  {
    files: ['src/mcp/**/*.ts'],
    rules: restrict(NO_VSCODE, NO_WEBVIEW_PROTOCOL, NO_CYTOSCAPE, NO_TYPESCRIPT, ENGINE_VIA_FACADE, MCP_APART),
  },
  {
    // The rooms two faces share: the agents' answers (kg mcp and the editor's language-model tools),
    // the build server's client and limits (kg build, kg diff and the editor), the git plumbing.
    files: ['src/agent/**/*.ts', 'src/build-server/**/*.ts', 'src/git/**/*.ts'],
    rules: restrict(NO_VSCODE, NO_WEBVIEW_PROTOCOL, NO_CYTOSCAPE, NO_TYPESCRIPT, ENGINE_VIA_FACADE, ROOM_APART),
  },
  { files: ['src/protocol/**/*.ts'], rules: restrict(NO_VSCODE, NO_CYTOSCAPE, NO_TYPESCRIPT, NO_NODE, ENGINE_VIA_FACADE) },
  { files: ['src/host/**/*.ts', 'src/extension.ts'], rules: restrict(NO_TYPESCRIPT, NO_CYTOSCAPE, ENGINE_VIA_FACADE, HOST_APART) },
  { files: ['webview/**/*.ts'], rules: restrict(NO_VSCODE, NO_TYPESCRIPT, NO_NODE, WEBVIEW_NO_ENGINE) },
  // One vocabulary: what one module owns is spelled there only (ADR 175). A file that defines one
  // of them keeps the other rule.
  {
    files: ['src/**/*.ts'],
    ignores: [GRAPH_DIR_HOME, UNRESOLVED_HOME, ...UNRESOLVED_SPELLED_BY_HAND],
    rules: spelledOnce(GRAPH_DIR_SPELLED, UNRESOLVED_SPELLED),
  },
  { files: [GRAPH_DIR_HOME], rules: spelledOnce(UNRESOLVED_SPELLED) },
  { files: [UNRESOLVED_HOME, ...UNRESOLVED_SPELLED_BY_HAND], rules: spelledOnce(GRAPH_DIR_SPELLED) },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}', '*.mjs'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Random tests take fast-check from the seed helper, so every run is repeatable and prints its
    // seed (docs/development.md).
    files: ['test/**/*.ts'],
    ignores: ['test/helpers/seed.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'fast-check', message: 'Import fc from test/helpers/seed.ts: it fixes the seed (KG_SEED) and prints it.' }] },
      ],
    },
  },
  {
    // TypeScript 7's API is unstable: one module speaks it, so its next change is one file's change
    // (ADR 113); both releases installed, 7.0.2 and 7.1, are behind it (ADR 186). A rule of its own
    // (typescript-eslint's twin), so it adds to every zone's rules above.
    files: ['**/*.ts', '**/*.mjs'],
    ignores: ['src/graph/indexer/compiler/native-api.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['typescript7', 'typescript7/*', 'typescript71', 'typescript71/*'],
              message:
                'Only src/graph/indexer/compiler/native-api.ts may import TypeScript 7 (typescript7, typescript71): its API is unstable and lives behind the checker seam in one file (ADR 113, ADR 186).',
            },
          ],
        },
      ],
    },
  },
);
