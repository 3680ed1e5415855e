// `kg doctor`: the six invariants over a graph.json, one line per rule, samples under failures.
// It only reads.

import * as fs from 'node:fs';
import { formatDoctorReport, isGraphError, runDoctor, schemaViolations, type SchemaViolations } from '../graph';
import { resolveGraphPaths } from './graph-path';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs } from './usage';

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

First checks the graph against its schema (schema/graph.schema.json), as every query does: a
graph that breaks it fails with the count and up to 20 violations, and the rules are not run.
Otherwise prints one line per rule with its status and violation count, and up to 20 samples
under each failing rule.

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
  const { graph, shown } = resolveGraphPaths(io, values.graph, values.root);
  let text: string;
  try {
    text = fs.readFileSync(graph, 'utf8');
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? `there is no graph at ${shown}; build one with kg build --apply`
        : `cannot read ${shown}: ${(e as Error).message}`;
    if (values.json) io.stdout.write(JSON.stringify({ available: false, graph: shown, reason }) + '\n');
    io.stderr.write(`kg: ${reason}\n`);
    return EXIT.UNAVAILABLE;
  }
  let problem: string | undefined;
  let report;
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    // The schema first, as every query checks it (ADR 76): one verdict per graph.
    const schema = schemaViolations(value);
    if (schema.count > 0) {
      if (values.json) io.stdout.write(JSON.stringify({ available: true, graph: shown, ok: false, schema }) + '\n');
      else io.stdout.write(formatSchemaViolations(schema, shown));
      return EXIT.FAILED;
    }
    report = runDoctor(value);
  } catch (e) {
    if (!(e instanceof SyntaxError) && !isGraphError(e)) throw e;
    problem = e instanceof SyntaxError ? `${shown} is not valid JSON (${e.message})` : `${shown}: ${(e as Error).message}`;
  }
  if (!report) {
    if (values.json) io.stdout.write(JSON.stringify({ available: true, graph: shown, ok: false, problem }) + '\n');
    io.stderr.write(`kg: doctor: ${problem}\n`);
    return EXIT.FAILED;
  }
  if (values.json) io.stdout.write(JSON.stringify({ available: true, graph: shown, ...report }) + '\n');
  else io.stdout.write(formatDoctorReport(report, shown));
  return report.ok ? EXIT.OK : EXIT.FAILED;
}

/** The schema's verdict as text: the count, then up to 20 violations, one a line. */
function formatSchemaViolations(v: SchemaViolations, shown: string): string {
  const lines = [
    `doctor: ${shown}: ${v.count} schema violation${v.count === 1 ? '' : 's'} (schema/graph.schema.json); no query reads this graph`,
  ];
  for (const s of v.samples) lines.push(`  ${s}`);
  if (v.count > v.samples.length) lines.push(`  … and ${v.count - v.samples.length} more`);
  lines.push('doctor: FAIL: the graph does not match its schema; the six rules were not run');
  return lines.join('\n') + '\n';
}
