// `kg export --format neo4j --out DIR`: the graph in another engine's format (src/graph/io/formats).
// `kg export --format mermaid|dot|svg --node ID | --from ID --to ID`: a picture of a node's
// neighbourhood or of a path (src/graph/picture, ADR 156), on stdout or in --out FILE.
// Reads the graph as every query does (schema-checked).

import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  describeUnavailable,
  dotPicture,
  loadGraphFile,
  mermaidPicture,
  neighborhoodPicture,
  neo4jExport,
  nodeOf,
  pathPicture,
  queryNeighborhood,
  queryPath,
  svgPicture,
  visible,
  type IndexedGraph,
  type Picture,
  type Unavailable,
} from '../graph';
import { resolveGraphArguments } from './graph-arguments';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

const PICTURES = { mermaid: mermaidPicture, dot: dotPicture, svg: svgPicture } as const;
const FORMATS = ['neo4j', ...Object.keys(PICTURES)] as const;
type PictureFormat = keyof typeof PICTURES;
const DEFAULT_DEPTH = 1;
const MAX_DEPTH = 10;
const DEFAULT_LIMIT = 40;
const MAX_LIMIT = 500;

export const EXPORT_HELP = `Usage: kg export --format neo4j --out DIR [--graph FILE] [--root DIR]
       kg export --format mermaid|dot|svg --node ID [--depth N] [--limit N] [--out FILE] [--graph FILE] [--root DIR]
       kg export --format mermaid|dot|svg --from ID --to ID [--out FILE] [--graph FILE] [--root DIR]

Writes the graph in another tool's format (docs/organisation.md, "Neo4j"), or draws a picture of
part of it (ADR 156):

  neo4j    nodes.csv and relationships.csv for Neo4j's bulk importer (neo4j-admin database
           import: id:ID, :LABEL, :START_ID, :END_ID, :TYPE and typed properties such as
           line:int), import.sh (the import command), constraints.cypher (the id constraint)
           and queries.cypher (the seven questions in Cypher). An unresolved: call target
           becomes a node labelled Unresolved.
  mermaid  a Mermaid flowchart (for a \`\`\`mermaid block in a README, a pull request, a record)
  dot      Graphviz's DOT language (kg does not run Graphviz)
  svg      a standalone SVG image, laid out by kg

A picture shows the neighbourhood of --node (the neighbors walk: both edge directions, sorted id
order, hubs and unresolved names reached but not expanded; at most --depth steps away and
--limit nodes), or the shortest path --from --to (as "kg path" finds it). Edges are drawn as
the explorer draws them: EXACT solid, CANDIDATE dashed, UNRESOLVED dotted in orange, each
guess labelled with its confidence. A legend says so, and says how many nodes the limit left
out and which hubs were not expanded.

Options:
${optionLines([
  ['--format NAME', `The format: ${FORMATS.join(', ')}.`],
  [
    '--out DIR|FILE',
    'neo4j: the folder to write (created if missing; the format’s files in it are\nreplaced). A picture: the file to write (default: stdout).',
  ],
  ['--node ID', 'A picture of this node’s neighbourhood.'],
  ['--depth N', `How many steps from --node (default ${DEFAULT_DEPTH}, at most ${MAX_DEPTH}).`],
  ['--limit N', `How many nodes at most, --node included (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`],
  ['--from ID, --to ID', 'A picture of the shortest path between these nodes.'],
  COMMON_OPTIONS.graph,
  COMMON_OPTIONS.root,
  COMMON_OPTIONS.help,
])}

Prints a JSON summary (neo4j) or the picture. Exit codes: 0 written, 1 the output could not be
written, 2 bad usage, 3 no usable graph or a node not in it (the reason on stderr).
`;

/** A whole number flag within [1, max], or the default. */
function bounded(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max} (got "${text}")`);
  return n;
}

/** Writes `text` to `target` without writing through a link there: a file of our own, renamed over the name. */
function writeThroughNoLink(target: string, text: string, mode: number): void {
  // Never through a link (issue 55, item 21: a link at DIR/nodes.csv was written through): a
  // new file of our own ('wx' refuses one that is there, link or not), renamed over the name,
  // which replaces a link itself and leaves what it leads to alone.
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.kg-tmp`);
  try {
    fs.writeFileSync(temp, text, { flag: 'wx', mode });
    if (mode & 0o111) fs.chmodSync(temp, mode);
    fs.renameSync(temp, target);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
}

interface PictureRequest {
  format: PictureFormat;
  node?: string;
  from?: string;
  to?: string;
  depth: number;
  limit: number;
}

function pictureRequest(format: PictureFormat, v: Record<string, string | undefined>): PictureRequest {
  const asksPath = v.from !== undefined || v.to !== undefined;
  if (v.node !== undefined && asksPath) throw new UsageError('a picture is of --node ID or of --from ID --to ID, not both');
  if (v.node === undefined && !asksPath) throw new UsageError(`--format ${format} needs --node ID, or --from ID --to ID`);
  if (asksPath && (v.from === undefined || v.to === undefined)) throw new UsageError('a path needs both --from ID and --to ID');
  if (asksPath && (v.depth !== undefined || v.limit !== undefined))
    throw new UsageError('--depth and --limit bound a neighbourhood (--node); a path has no bound');
  return {
    format,
    node: v.node,
    from: v.from,
    to: v.to,
    depth: bounded('--depth', v.depth, DEFAULT_DEPTH, MAX_DEPTH),
    limit: bounded('--limit', v.limit, DEFAULT_LIMIT, MAX_LIMIT),
  };
}

function drawPicture(g: IndexedGraph, r: PictureRequest): Picture | Unavailable {
  const lookup = (id: string) => nodeOf(g, id);
  if (r.node !== undefined) {
    const n = queryNeighborhood(g, r.node, r.depth, r.limit);
    return n.available ? neighborhoodPicture(n, { depth: r.depth, limit: r.limit }, lookup) : n;
  }
  const p = queryPath(g, r.from as string, r.to as string);
  return p.available ? pathPicture(p, r.from as string, r.to as string, lookup) : p;
}

export function runExport(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    format: { type: 'string' },
    out: { type: 'string' },
    graph: { type: 'string' },
    root: { type: 'string' },
    node: { type: 'string' },
    depth: { type: 'string' },
    limit: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  });
  if (values.format === undefined) throw new UsageError(`missing --format (${FORMATS.join(', ')})`);
  if (!(FORMATS as readonly string[]).includes(values.format))
    throw new UsageError(`unknown format "${values.format}": ${FORMATS.join(', ')}`);
  const picture = values.format === 'neo4j' ? undefined : pictureRequest(values.format as PictureFormat, values);
  if (picture === undefined) {
    const misplaced = (['node', 'depth', 'limit', 'from', 'to'] as const).filter((k) => values[k] !== undefined);
    if (misplaced.length > 0) throw new UsageError(`--${misplaced[0]} is for pictures (mermaid, dot, svg), not neo4j`);
    if (values.out === undefined) throw new UsageError('missing --out DIR');
  }
  const { graph, shown } = resolveGraphArguments(io, values.graph, values.root);
  const load = loadGraphFile(graph);
  if (!load.ok) {
    io.stderr.write(`kg export: unavailable: ${shown}: ${load.unavailable.reason}\n`);
    return EXIT.UNAVAILABLE;
  }
  if (picture !== undefined) return writePicture(load.graph, picture, values.out, io);
  const files = neo4jExport(load.graph.graph);
  const out = path.resolve(io.cwd, values.out as string);
  try {
    fs.mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeThroughNoLink(path.join(out, name), text, name.endsWith('.sh') ? 0o755 : 0o644);
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

function writePicture(g: IndexedGraph, r: PictureRequest, out: string | undefined, io: CliIo): number {
  const drawn = drawPicture(g, r);
  if ('available' in drawn) {
    // Text from the graph (an asked id, suggestions) is shown with its controls made visible (ADR 96).
    const hint =
      drawn.suggestions !== undefined && drawn.suggestions.length > 0
        ? `did you mean: ${drawn.suggestions.join(', ')}`
        : 'find ids with "kg query <text>"; if the code is new, rebuild the graph with "kg build --apply"';
    io.stderr.write(`kg export: unavailable: ${visible(describeUnavailable(drawn, 'graph.json'))}\nkg export: ${visible(hint)}\n`);
    return EXIT.UNAVAILABLE;
  }
  const text = PICTURES[r.format](drawn);
  if (out === undefined) {
    io.stdout.write(text);
    return EXIT.OK;
  }
  const target = path.resolve(io.cwd, out);
  try {
    writeThroughNoLink(target, text, 0o644);
  } catch (e) {
    io.stderr.write(`kg export: cannot write ${target}: ${(e as Error).message}\n`);
    return EXIT.FAILED;
  }
  io.stderr.write(
    `kg export: wrote ${path.relative(io.cwd, target) || target} (${r.format}, ${drawn.nodes.length} nodes, ${drawn.edges.length} edges)\n`,
  );
  return EXIT.OK;
}
