// `kg doctor`: the six invariants over a graph.json, one line per rule, samples under failures.
// It only reads.

import * as fs from 'node:fs';
import { examineGraph, formatDoctorReport, graphOutsideItsRepository, isGraphError, LOADER_CHECKS, visible } from '../graph';
import { resolveGraphArguments } from './graph-arguments';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, wrap } from './usage';

export const DOCTOR_HELP = `Usage: kg doctor [--graph FILE] [--root DIR] [--json]

Checks a graph.json against the six invariants and never modifies it:

  exact_edge_without_source     an EXACT edge whose source no file declares
  exact_edge_without_target     an EXACT edge whose target no file declares
  missing_evidence_file         an edge whose evidence file is not a file node
  duplicate_stable_key          one stable key (node id) on two nodes
  unknown_confidence            a value outside the vocabulary, or EXACT backed by
                                non-exact provenance
  invalid_repository_ownership  a node or edge whose owning file does not match its id,
                                its containment or its evidence

Checks the graph against its schema (schema/graph.schema.json), as every query does, and runs
the six rules beside it on anything with node and edge arrays, however badly it breaks the
schema: one line for the schema and one per rule, each with its status and count, and up to 20
samples under each failure. Text from the graph is printed with control characters made
visible (\u001b).

${wrap(LOADER_CHECKS)}

Options:
${optionLines([COMMON_OPTIONS.graph, COMMON_OPTIONS.root, ['--json', 'Print the report as JSON instead of text.'], COMMON_OPTIONS.help])}

Exit codes: 0 all rules pass, 1 a rule failed or the file is not a graph, 2 bad usage,
3 there is no graph to check.
`;

export function runDoctorCommand(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    graph: { type: 'string' },
    root: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const { graph, shown } = resolveGraphArguments(io, values.graph, values.root);
  let text: string;
  try {
    // A graph linked out of its repository is refused as the queries refuse it (exit 3), unread.
    const outside = graphOutsideItsRepository(graph);
    if (outside !== undefined) throw Object.assign(new Error(outside), { code: 'OUTSIDE' });
    text = fs.readFileSync(graph, 'utf8');
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === 'OUTSIDE'
        ? `${shown}: ${(e as Error).message}`
        : (e as NodeJS.ErrnoException).code === 'ENOENT'
          ? `there is no graph at ${shown}; build one with kg build --apply`
          : `cannot read ${shown}: ${(e as Error).message}`;
    if (values.json) io.stdout.write(JSON.stringify({ available: false, graph: shown, reason }) + '\n');
    io.stderr.write(`kg: ${visible(reason)}\n`);
    return EXIT.UNAVAILABLE;
  }
  let problem: string | undefined;
  let report;
  try {
    report = examineGraph(JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  } catch (e) {
    if (!(e instanceof SyntaxError) && !isGraphError(e)) throw e;
    problem = e instanceof SyntaxError ? `${shown} is not valid JSON (${e.message})` : `${shown}: ${(e as Error).message}`;
  }
  if (!report) {
    if (values.json) io.stdout.write(JSON.stringify({ available: true, graph: shown, ok: false, problem }) + '\n');
    io.stderr.write(`kg: doctor: ${visible(problem ?? '')}\n`);
    return EXIT.FAILED;
  }
  if (values.json) io.stdout.write(JSON.stringify({ available: true, graph: shown, ...report }) + '\n');
  else io.stdout.write(formatDoctorReport(report, shown));
  return report.ok ? EXIT.OK : EXIT.FAILED;
}
