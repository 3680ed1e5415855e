// The tools `kg mcp` offers, derived from the query catalogue (src/graph/query/catalogue.ts): one
// tool per question the catalogue offers to agents, its input schema from the question's typed
// parameters, its description from the question's summary and help, its output schema from the
// question's result schema — plus the arguments every tool shares (which repository, which page)
// and the two tools that are not graph questions: `check` (the guard `kg check` runs) and `build`
// (`kg build --apply`, through the build server). docs/agents.md lists them.
//
// What `tools/list` offers by default is smaller (ADR 164): one entry point, explore_code, whose
// `ask` chooses among the questions agents ask most (symbol, callers, impact, path, find, why) and
// answers each exactly as the tool of that name does, plus check and build. Every single-purpose
// tool stays available behind `kg mcp --all-tools` (or KG_MCP_TOOLS=all), and the editor's
// language-model tools are those single-purpose tools.

import {
  CATALOGUE,
  DEFAULT_GRAPH_PATH,
  namesFor,
  paramsOf,
  RESULT_SCHEMAS,
  type JsonSchema,
  type ParamSpec,
  type QueryName,
} from '../graph';
import { DEFAULT_LIMIT, DEFAULT_MAX_BYTES, MAX_LIMIT } from './budget';

export interface QueryTool {
  kind: 'query';
  name: string;
  /** The catalogue question it asks. */
  query: QueryName;
  /** Whether it takes `scope` (the store answers its question: the catalogue's `store` face). */
  scoped: boolean;
  /** Whether the store could answer it, were one configured: `scope: "organisation"` then says how to configure one. */
  storeFace: boolean;
  /** Whether `offset` and `limit` page its lists (questions with a limit of their own do not). */
  paged: boolean;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

export interface CommandTool {
  kind: 'check' | 'build';
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

/** The entry point: one of several questions, chosen by `ask`, each answered by its query tool. */
interface EntryTool {
  kind: 'entry';
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

export type Tool = QueryTool | CommandTool | EntryTool;

/** A tool's name where it differs from its question's: `query` reads as "find" to a model. */
const TOOL_NAME: Partial<Record<QueryName, string>> = { query: 'find' };

/** Asked first: the whole picture of one symbol. The rest keep the catalogue's order. */
const FIRST: QueryName = 'symbol';

/** Questions the organisation's store answers too: their tools take `scope`. */
const STORE_FACE: ReadonlySet<string> = new Set(namesFor('store'));

/** Questions whose lists are paged by the shared `offset`/`limit` (the others bound themselves). */
const PAGED: ReadonlySet<QueryName> = new Set(['callers', 'affected', 'impact', 'neighbors', 'why']);

const TIERS = `Tiers: EXACT means the TypeScript type checker proved it — a fact. CANDIDATE means a name matched — a guess: read the code at the call site before you rely on it, and never report it as a caller without saying it is a guess. UNRESOLVED means nobody could place the call; its reason says why (external = a package or the standard library, any-receiver = an untyped receiver, dynamic-access, no-declaration).`;

const ID_HINT = `Give a node id (sym:src/util.ts#helper), a name as written in code (helper, Subscriber.next, Ky.fetch), a path#name, a file path, or path:line[:column]. An ambiguous name is answered with the candidates to choose from — call again with one of their ids.`;

const ANSWER_NOTES = `Every node the answer names is placed in "locations" (path:line:column). Long lists are cut to fit a context window: "omitted" counts, per list, the entries after this page that were left out (none left: the list is absent from it) and "more" says how to ask for them. "stale": true means files changed since the graph was built ("changedFiles"): call build if your question is about them. When there is no usable graph the tool fails with what to do.`;

const ROOT: JsonSchema = {
  type: 'string',
  description: `The repository to ask about: a folder (absolute, or relative to the server's working folder). Default: the repository the server was started in. Only the repositories the server was started for (kg mcp --root) and folders inside them are accepted. Its graph is ${DEFAULT_GRAPH_PATH}.`,
};
/** `root` where explore_code says what it is: said once in a listing (ADR 164). */
const ROOT_AS_EXPLORE: JsonSchema = { type: 'string', description: "The repository, as explore_code's root." };
const SCOPE: JsonSchema = {
  type: 'string',
  enum: ['repository', 'organisation'],
  default: 'repository',
  description:
    "repository: this repository's graph. organisation: every repository in the organisation's store (kg mcp --store URL or KG_STORE; in the editor, the knowledgeGraph.store setting) — who calls a library function anywhere; ids are then qualified by repository (acme/web/sym:src/a.ts#run), and node arguments must be ids.",
};
const OFFSET: JsonSchema = { type: 'integer', minimum: 0, default: 0, description: 'Skip this many entries of each list (the next page).' };
const LIMIT: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: `At most this many entries of each list (the answer is also kept under about ${DEFAULT_MAX_BYTES} bytes).`,
};

function paramSchema(spec: ParamSpec): JsonSchema {
  switch (spec.type) {
    case 'string':
      return {
        type: 'string',
        ...(spec.default !== undefined ? { default: spec.default } : {}),
        description: spec.role === 'id' ? `${spec.summary} ${ID_HINT}` : spec.summary,
      };
    case 'integer':
      return {
        type: 'integer',
        minimum: spec.min,
        ...(spec.max !== undefined ? { maximum: spec.max } : {}),
        ...(spec.default !== undefined ? { default: spec.default } : {}),
        description: spec.summary,
      };
    case 'strings':
      return { type: 'array', items: { type: 'string' }, description: spec.summary };
    case 'boolean':
      return { type: 'boolean', default: false, description: spec.summary };
  }
}

/** What every agent answer may add to the catalogue's result. */
const EXTRAS: Record<string, JsonSchema> = {
  resolved: {
    type: 'object',
    description: 'For each node argument given as a name or place: what was asked and the id it named.',
    additionalProperties: {
      type: 'object',
      properties: {
        asked: { type: 'string' },
        id: { type: 'string' },
        via: { type: 'string' },
      },
      required: ['asked', 'id', 'via'],
    },
  },
  locations: { type: 'object', additionalProperties: { type: 'string' }, description: 'path:line:column of each node the answer names.' },
  omitted: {
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Per list, how many entries after this page are not shown (those before offset are not counted).',
  },
  more: { type: 'string', description: 'How to ask for what was left out.' },
  stalenessUnknown: { type: 'string', description: 'Why the graph could not be compared with the working tree.' },
};

/** The catalogue's result schema with the agent extras allowed beside its fields. */
function withExtras(schema: JsonSchema): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>), ...EXTRAS };
  return { ...schema, properties };
}

function queryTool(query: QueryName, store = true): QueryTool {
  const entry = CATALOGUE[query];
  const paged = PAGED.has(query);
  const params = paramsOf(query);
  const properties: Record<string, JsonSchema> = {};
  for (const [key, spec] of params) properties[key] = paramSchema(spec);
  properties.root = ROOT;
  const scoped = store && STORE_FACE.has(query);
  if (scoped) properties.scope = SCOPE;
  if (paged) {
    properties.offset = OFFSET;
    properties.limit = LIMIT;
  }
  const required = params.filter(([, s]) => s.type === 'strings' || (s.type !== 'boolean' && s.default === undefined)).map(([k]) => k);
  const name = TOOL_NAME[query] ?? query;
  return {
    kind: 'query',
    name,
    query,
    scoped,
    storeFace: STORE_FACE.has(query),
    paged,
    title: entry.summary.replace(/[.:].*$/, ''),
    description: [
      entry.summary,
      entry.help,
      TIERS,
      params.some(([, s]) => s.type === 'string' && s.role === 'id') ? ID_HINT : '',
      ANSWER_NOTES,
    ]
      .filter((s) => s !== '')
      .join('\n\n'),
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    outputSchema: withExtras(RESULT_SCHEMAS[query]),
  };
}

const CHECK: CommandTool = {
  kind: 'check',
  name: 'check',
  title: 'What the working tree breaks',
  description: `What your edits break: compares the working tree with the graph it was built from (the guard \`kg check\` runs) and lists every symbol with EXACT consumers in other files that was removed, renamed, unexported, or whose declared signature changed (parameters, their types, return type, type parameters — never a body), each with the consumers it breaks. Call it after editing and before you finish: "breaks": false means no proven consumer is broken, and "consumersUnseenIn" names the files changed since the build, whose new consumers the graph cannot see. It reads files with the parser only and writes nothing.`,
  inputSchema: { type: 'object', properties: { root: ROOT_AS_EXPLORE, offset: OFFSET, limit: LIMIT }, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      available: { const: true },
      base: { type: 'string' },
      mode: { type: 'string' },
      breaks: { type: 'boolean' },
      failed: { type: 'boolean' },
      checkedFiles: { type: 'integer' },
      consumersUnseenIn: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Code files changed or added since the graph was built: consumers written there since are not in the graph, so not checked.',
      },
      breakingChanges: { type: 'array', items: { type: 'object' } },
      problems: { type: 'array', items: { type: 'string' } },
      evidenceClass: { const: 'GRAPH_DERIVED' },
      ...EXTRAS,
    },
    required: ['available', 'breaks', 'breakingChanges', 'evidenceClass'],
  },
};

const BUILD: CommandTool = {
  kind: 'build',
  name: 'build',
  title: 'Rebuild the graph',
  description: `Rebuilds the repository's graph (\`kg build --apply\`): incremental — only what your edits can affect is analysed again, through the repository's build server when one runs — and the next answer of every tool comes from the new graph. Call it when an answer says "stale": true about files you care about, or when a tool fails with "no graph". It runs the TypeScript compiler over the repository's files (never the repository's own code) and writes only ${DEFAULT_GRAPH_PATH} and its manifest. "full": true rebuilds from scratch.`,
  inputSchema: {
    type: 'object',
    properties: {
      root: { type: 'string', description: "Which repository to rebuild (as explore_code's root)." },
      full: { type: 'boolean', default: false, description: 'Rebuild from scratch instead of incrementally.' },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      built: { type: 'boolean' },
      root: { type: 'string' },
      summary: { type: 'string', description: 'The line kg build prints.' },
      nodes: { type: 'integer' },
      edges: { type: 'integer' },
    },
    required: ['built', 'root', 'summary'],
  },
};

/** The questions `ask` chooses among, and the catalogue question that answers each. */
export const ASKS = { symbol: 'symbol', callers: 'callers', impact: 'impact', path: 'path', find: 'query', why: 'why' } as const;
export type Ask = keyof typeof ASKS;

/** The entry point's name: what an agent about to read or change code looks for (ADR 164). */
export const ENTRY_NAME = 'explore_code';

/** The parameters of each single-purpose tool that the entry point's `target` stands for. */
export const TARGET_PARAM: Record<Ask, string> = { symbol: 'id', callers: 'id', impact: 'id', path: 'from', find: 'text', why: 'id' };

function entryTool(store: boolean): EntryTool {
  const properties: Record<string, JsonSchema> = {
    ask: {
      type: 'string',
      enum: Object.keys(ASKS),
      description: 'The question (listed in the description).',
    },
    target: { type: 'string', description: `The symbol asked about; with find, the text to look for. ${ID_HINT}` },
    to: { type: 'string', description: 'With path: where the path ends, written as target is.' },
    offset: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'With callers, impact or why: skip this many entries of each list (the next page).',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      description: `At most this many entries of each list (default ${DEFAULT_LIMIT}; symbol's own default is smaller). Every answer also stays under about ${DEFAULT_MAX_BYTES} bytes.`,
    },
    root: ROOT,
  };
  if (store) properties.scope = SCOPE;
  return {
    kind: 'entry',
    name: ENTRY_NAME,
    title: 'Explore the code graph',
    description: `Who calls a function, what breaks if it changes, how one piece of code reaches another — answered from this TypeScript/JavaScript repository's knowledge graph, proven by the type checker: ask it before grep or reading files. "ask" picks the question; "target" names the symbol:

- symbol: its whole picture — declaration, callers, callees, unplaced calls, rationale. Start here.
- callers: who calls it.
- impact: what breaks if it changes — callers and every other consumer, with the blast radius.
- path: how it reaches "to": a chain of proven calls, else a connection that says it is not one.
- find: node ids containing the text (a private #name as written, or %23name).
- why: the notes and decision records about it.

${TIERS}

${ANSWER_NOTES}`,
    inputSchema: { type: 'object', properties, required: ['ask', 'target'], additionalProperties: false },
    outputSchema: {
      type: 'object',
      description: 'The answer of the question asked: what the single-purpose tool of that name answers (kg mcp --all-tools lists them).',
      properties: { available: { const: true }, stale: { type: 'boolean' } },
      required: ['available'],
    },
  };
}

/** The single-purpose tools, in the order an agent should read them: `symbol` first, `check` and `build` last. */
function singleTools(store: boolean): Tool[] {
  return [
    queryTool(FIRST, store),
    ...namesFor('agent')
      .filter((n): n is QueryName => n !== FIRST && n in RESULT_SCHEMAS)
      .map((n) => queryTool(n as QueryName, store)),
    CHECK,
    BUILD,
  ];
}

/** Every single-purpose tool, `scope` included: what the editor offers (it has its store setting). */
export const TOOLS: readonly Tool[] = singleTools(true);

export const TOOL_BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));

/**
 * What `kg mcp` lists: the entry point, check and build; with `all`, every single-purpose tool
 * too. `scope` only where an organisation store is configured (`store`).
 */
export function toolsFor(opts: { all: boolean; store: boolean }): Tool[] {
  const singles = singleTools(opts.store);
  const entry = entryTool(opts.store);
  return opts.all ? [entry, ...singles] : [entry, ...singles.filter((t) => t.kind !== 'query')];
}

/** The tool that asks a catalogue question (for `more` sentences that point to another tool). */
export function toolNameOf(query: QueryName): string {
  return TOOL_NAME[query] ?? query;
}

/** The editor's name for a tool (`knowledgeGraph_symbol`): VS Code tool names allow letters, digits, `_` and `-`. */
export function languageModelToolName(tool: Pick<Tool, 'name'>): string {
  return `knowledgeGraph_${tool.name}`;
}

/**
 * The `contributes.languageModelTools` entries of package.json: every tool, as the editor's chat
 * offers them — the questions answered by the graph worker over the workspace folder's graph,
 * check by the bundled kg, build by the extension's own build (src/host/lm-tools.ts) — so without
 * `root`. test/unit/mcp-tools.test.ts checks that package.json holds exactly these.
 */
export function languageModelToolContributions(): Array<Record<string, unknown>> {
  return TOOLS.map((t) => {
    const schema = t.inputSchema as { properties: Record<string, JsonSchema>; required?: string[] };
    // No root (the folder is the editor's). Scope stays: the editor asks its knowledgeGraph.store (ADR 123).
    const properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => k !== 'root'));
    return {
      name: languageModelToolName(t),
      toolReferenceName: `kg-${t.name}`,
      displayName: `Knowledge Graph: ${t.title}`,
      userDescription: t.title,
      modelDescription: t.description,
      canBeReferencedInPrompt: true,
      tags: ['knowledge-graph', 'code-graph', 'typescript'],
      inputSchema: { ...schema, properties },
      // Offered to chat unless knowledgeGraph.chatTools names the kg mcp server instead (ADR 178).
      when: 'config.knowledgeGraph.chatTools != mcpServer',
    };
  });
}
