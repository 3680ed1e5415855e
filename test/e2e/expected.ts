// What the e2e workspaces hold, written down by hand from their sources — not from a build — so
// a test compares the extension's output with an independent count.

/** test/e2e/workspaces/basic: every node its graph must have, and no other. */
export const BASIC_NODE_IDS = [
  // directories holding files the graph includes: the root holds README.md (documentation)
  'mod:.',
  'mod:src',
  'mod:src/util',
  // README.md is a documentation file; its one heading "# basic" is a doc concept
  'file:README.md',
  'doc:README.md#basic~0',
  // source files
  'file:src/greet.ts',
  'file:src/main.ts',
  'file:src/util/math.ts',
  // src/greet.ts: function greet, class Greeter with methods hello and bye and the parameter
  // property prefix (constructors are not nodes; fields are, ADR 151)
  'sym:src/greet.ts#greet',
  'sym:src/greet.ts#Greeter',
  'sym:src/greet.ts#Greeter.bye',
  'sym:src/greet.ts#Greeter.hello',
  'sym:src/greet.ts#Greeter.prefix',
  // src/main.ts: function main
  'sym:src/main.ts#main',
  // src/util/math.ts: const arrow function add, interface Shape with method area, enum Unit
  'sym:src/util/math.ts#add',
  'sym:src/util/math.ts#Shape',
  'sym:src/util/math.ts#Shape.area',
  'sym:src/util/math.ts#Unit',
].sort();

export const EXTENSION_ID = 'knowledge-graph.knowledge-graph';
export const BUILD_TITLE = 'Knowledge Graph: Build Knowledge Graph';

/**
 * The callers lens's title as the tests expect it: the proven callers, the guesses, then the
 * symbols and files that use the symbol without calling it ("0 callers · 2 referrers", ADR 151).
 * The referrers are counted here from graph.json's edges, by the relations written out below,
 * not by the product's code: distinct sources of EXACT references, imports, re-exports, extends and
 * inherits edges into `id`, other than `id` itself and its proven callers, and other than a file
 * whose own symbols are among those (its import is how they use it).
 */
export function expectedLensTitle(
  graph: { edges: ReadonlyArray<{ source: string; target: string; relation: string; confidence: string }> },
  id: string,
  callers: readonly string[],
  candidates: readonly string[],
): string {
  const n = callers.length;
  const m = candidates.length;
  let title = `${n} ${n === 1 ? 'caller' : 'callers'}${m > 0 ? ` · +${m} ${m === 1 ? 'candidate' : 'candidates'}` : ''}`;
  const uses = ['references', 'imports', 're-exports', 'extends', 'inherits'];
  const users = new Set(
    graph.edges
      .filter(
        (e) => e.target === id && e.confidence === 'EXACT' && uses.includes(e.relation) && e.source !== id && !callers.includes(e.source),
      )
      .map((e) => e.source),
  );
  // A file whose own symbols call or use it is not counted again for its import.
  const fileOf = (s: string) => (s.startsWith('sym:') ? s.slice(4, s.indexOf('#')) : undefined);
  const symbolFiles = new Set([...callers, ...users].map(fileOf).filter((f) => f !== undefined));
  for (const u of [...users]) if (u.startsWith('file:') && symbolFiles.has(u.slice(5))) users.delete(u);
  if (users.size > 0) title += ` · ${users.size} ${users.size === 1 ? 'referrer' : 'referrers'}`;
  return title;
}
