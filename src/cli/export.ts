// `kg export --format neo4j --out DIR`: the graph in another engine's format (src/graph/io/formats).
// Reads the graph as every query does (schema-checked); writes the format's files into DIR.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadGraphFile, neo4jExport } from '../graph';
import { resolveGraphPaths } from './graph-path';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

const FORMATS = ['neo4j'] as const;

export const EXPORT_HELP = `Usage: kg export --format neo4j --out DIR [--graph FILE] [--root DIR]

Writes the graph in another tool's format (docs/organisation.md, "Neo4j"):

  neo4j   nodes.csv and relationships.csv for Neo4j's bulk importer (neo4j-admin database
          import: id:ID, :LABEL, :START_ID, :END_ID, :TYPE and typed properties such as
          line:int), import.sh (the import command), constraints.cypher (the id constraint)
          and queries.cypher (the seven questions in Cypher). An unresolved: call target
          becomes a node labelled Unresolved.

Options:
${optionLines([
  ['--format NAME', `The format: ${FORMATS.join(', ')}.`],
  ['--out DIR', 'The folder to write (created if missing; the format’s files in it are replaced).'],
  COMMON_OPTIONS.graph,
  COMMON_OPTIONS.root,
  COMMON_OPTIONS.help,
])}

Prints a JSON summary. Exit codes: 0 written, 1 the folder could not be written, 2 bad usage,
3 no usable graph (the reason on stderr).
`;

export function runExport(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    format: { type: 'string' },
    out: { type: 'string' },
    graph: { type: 'string' },
    root: { type: 'string' },
  });
  if (values.format === undefined) throw new UsageError(`missing --format (${FORMATS.join(', ')})`);
  if (!(FORMATS as readonly string[]).includes(values.format))
    throw new UsageError(`unknown format "${values.format}": ${FORMATS.join(', ')}`);
  if (values.out === undefined) throw new UsageError('missing --out DIR');
  const { graph, shown } = resolveGraphPaths(io, values.graph, values.root);
  const load = loadGraphFile(graph);
  if (!load.ok) {
    io.stderr.write(`kg export: unavailable: ${shown}: ${load.unavailable.reason}\n`);
    return EXIT.UNAVAILABLE;
  }
  const files = neo4jExport(load.graph.graph);
  const out = path.resolve(io.cwd, values.out);
  try {
    fs.mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      // Never through a link (issue 55, item 21: a link at DIR/nodes.csv was written through): a
      // new file of our own ('wx' refuses one that is there, link or not), renamed over the name,
      // which replaces a link itself and leaves what it leads to alone.
      const target = path.join(out, name);
      const temp = path.join(out, `.${name}.${process.pid}.kg-tmp`);
      try {
        fs.writeFileSync(temp, text, { flag: 'wx', mode: name.endsWith('.sh') ? 0o755 : 0o644 });
        if (name.endsWith('.sh')) fs.chmodSync(temp, 0o755);
        fs.renameSync(temp, target);
      } catch (e) {
        fs.rmSync(temp, { force: true });
        throw e;
      }
    }
  } catch (e) {
    io.stderr.write(`kg export: cannot write ${out}: ${(e as Error).message}\n`);
    return EXIT.FAILED;
  }
  const g = load.graph.graph;
  io.stdout.write(
    JSON.stringify({
      format: values.format,
      out: path.relative(io.cwd, out) || '.',
      files: Object.keys(files),
      nodes: load.graph.ids.length,
      relationships: g.edges.length,
    }) + '\n',
  );
  return EXIT.OK;
}
