// What both tiers of the build work from and share (the context, a file's import edges, a carried
// file's facts replayed), and the extraction tier: each file parsed on its own, no programs, no
// checker. The resolution tier is resolution-tier.ts; builder.ts runs one or the other.

import type * as ts from 'typescript';
import { GraphError } from '../../errors';
import { fileId, unresolvedId } from '../../ids';
import type { GraphEdge, GraphNode, Relation, UnresolvedReason, UnresolvedSummary } from '../../model';
import type { CheckerProvider, CheckerReport } from './checker';
import type { Discovery } from './discover';
import { exactEdge, unresolvedEdge } from '../edges';
import { extractFile, parseSource, type FileExtraction } from './extract';
import type { FileHost } from '../files/file-host';
import type { ImportOutcome, ModuleResolver } from './imports';
import type { SourceInput } from './sources';
import type { ProgramStore } from './program';
import type { ResolutionSink } from './resolve';
import type { FileShape } from './file-shape';
import { commentCitations } from '../rationale/comments';
import type { RationaleLayer } from '../rationale/rationale';
import { sourceNotes } from '../rationale/notes';
import type { BuildSink, CarriedFacts, FactReuse, FileRecord } from './builder';

export function checkCancelled(sink: BuildSink | undefined): void {
  if (sink?.isCancelled?.()) throw new GraphError('CANCELLED', 'build cancelled');
}

function count(summary: UnresolvedSummary, relation: Relation, reason: UnresolvedReason): void {
  const byReason = (summary[relation] ??= {});
  byReason[reason] = (byReason[reason] ?? 0) + 1;
}

/** Turns a file's import references into edges through the module resolver. */
export function importEdges(
  resolver: ModuleResolver,
  input: SourceInput,
  extraction: Pick<FileExtraction, 'imports'>,
  summary: UnresolvedSummary,
  listExternal: boolean,
  outcomes?: ImportOutcome[],
): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const from = fileId(input.path);
  for (const ref of extraction.imports) {
    const relation: Relation = ref.kind === 're-export' ? 're-exports' : 'imports';
    const outcome = resolver.resolve(input.project, input.path, ref);
    outcomes?.push(outcome);
    const opts = { evidence: ref.evidence, context: ref.context, ast: true };
    if (outcome.kind === 'file') {
      edges.push(exactEdge(from, fileId(outcome.path), relation, 'MODULE_RESOLUTION', opts));
      continue;
    }
    count(summary, relation, outcome.reason);
    if (outcome.reason === 'external' && !listExternal) continue;
    edges.push(unresolvedEdge(from, unresolvedId(ref.specifier), relation, outcome.reason, opts));
  }
  return edges;
}

export interface TierOutput {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** What both tiers work from. */
export interface TierContext {
  root: string;
  host: FileHost;
  inputs: readonly SourceInput[];
  discovery: Discovery;
  resolver: ModuleResolver;
  summary: UnresolvedSummary;
  listExternal: boolean;
  rationale: RationaleLayer;
  sink: BuildSink | undefined;
  reuse: FactReuse | undefined;
  programs: ProgramStore | undefined;
  checker: CheckerProvider | undefined;
  /** Filled by the resolution tier: which backend served each project. */
  report: CheckerReport;
  /** Filled by the tier: what the manifest records of each file. */
  files: FileRecord[];
  /** Filled by the resolution tier: carried files its programs read with their bodies blank (ADR 129). */
  blanked: number;
  /** The screen's trees by path, parsed as the programs parse (ADR 137); the resolution tier takes them and empties the map. */
  screenedTrees: Map<string, ts.SourceFile>;
}

const NO_SHAPE: FileShape = { shape: '', global: false };

/** Emits a carried file's facts, replaying what is derived again, and records it. */
export function emitCarried(ctx: TierContext, out: TierOutput, input: SourceInput, c: CarriedFacts, resolution?: ResolutionSink): void {
  const outcomes: ImportOutcome[] = [];
  out.nodes.push(...c.nodes);
  out.edges.push(
    ...c.edges,
    ...importEdges(ctx.resolver, input, c, ctx.summary, ctx.listExternal, outcomes),
    ...ctx.rationale.cite(c.cites),
  );
  ctx.rationale.addNotes(input.path, c.notes);
  resolution?.replay(input.path, c.residue);
  ctx.files.push({
    path: input.path,
    sha256: input.sha256,
    project: input.project.configPath,
    imports: c.imports,
    outcomes,
    cites: c.cites,
    notes: c.notes,
    residue: c.residue,
    shape: c.shape,
    carried: true,
  });
}

/** Extraction only: parse each file on its own, no programs, no checker. */
export function extractionTier(ctx: TierContext): TierOutput {
  const { root, inputs, resolver, summary, listExternal, rationale, sink } = ctx;
  const out: TierOutput = { nodes: [], edges: [] };
  let done = 0;
  for (const input of inputs) {
    const carried = ctx.reuse?.carry(input);
    if (carried) {
      emitCarried(ctx, out, input, carried);
    } else {
      const abs = root + '/' + input.path;
      const sf = parseSource(abs, input.text, resolver.impliedFormat(input.project, abs));
      const extraction = extractFile(sf, input.path);
      const outcomes: ImportOutcome[] = [];
      const cites = commentCitations(sf, input.path, extraction.declarations);
      const notes = sourceNotes(sf, input.path, extraction.declarations);
      rationale.addNotes(input.path, notes);
      out.nodes.push(...extraction.nodes);
      out.edges.push(
        ...extraction.edges,
        ...importEdges(resolver, input, extraction, summary, listExternal, outcomes),
        ...rationale.cite(cites),
      );
      ctx.files.push({
        path: input.path,
        sha256: input.sha256,
        project: input.project.configPath,
        imports: extraction.imports,
        outcomes,
        cites,
        notes,
        residue: { counted: {}, sites: [] },
        shape: NO_SHAPE,
        carried: false,
      });
    }
    done++;
    if (done % 200 === 0 || done === inputs.length) {
      sink?.progress?.('extract', done, inputs.length);
      checkCancelled(sink);
    }
  }
  return out;
}
