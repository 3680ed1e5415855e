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
