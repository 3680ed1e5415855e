// `symbol <id> [--limit N]`: the whole picture of one node in one answer — where it is declared,
// who calls it (proven, and guessed apart), what it calls (proven, guessed, and the calls nobody
// could place, with their reasons), and what is written about it (`why`). The first question an
// agent asks (docs/agents.md); the editor's details pane shows the same facts. Each list is cut at
// `limit` entries and `totals` says how many there are, so a symbol with 500 callers stays a short
// answer that says how much it left out.

import type { GraphNode } from '../model';
import type { IndexedGraph } from './indexed';
import { callsLayerDegrade, rankOrDegrade } from './lookup';
import { calleeSites, callerSites } from './node-details';
import { answered, type CallSite, type QueryOptions, type SymbolResult } from './shapes';
import { queryWhy } from './why';

export const DEFAULT_SYMBOL_LIMIT = 20;

/** `path:line:column` of a node with a position, else its path, else undefined. */
function locationOf(n: GraphNode | undefined): string | undefined {
  if (!n?.sourceFile) return undefined;
  return n.line !== undefined && n.column !== undefined ? `${n.sourceFile}:${n.line}:${n.column}` : n.sourceFile;
}

export function querySymbol(g: IndexedGraph, id: string, limit = DEFAULT_SYMBOL_LIMIT, opts?: QueryOptions): SymbolResult {
  const r = rankOrDegrade(g, id, opts, false);
  if (typeof r !== 'number') return r;
  if (id.startsWith('sym:')) {
    const noLayer = callsLayerDegrade(g, opts);
    if (noLayer) return noLayer;
  }
  const node = g.nodeAt[r] as GraphNode;
  const { callers, candidates } = callerSites(g, r);
  const out = calleeSites(g, r);
  const callees = out.filter((c) => c.confidence === 'EXACT');
  const calleeCandidates = out.filter((c) => c.confidence === 'CANDIDATE');
  const unresolved = out.filter((c) => c.confidence === 'UNRESOLVED');
  const why = queryWhy(g, id);
  const cut = (list: CallSite[]) => list.slice(0, limit);
  const location = locationOf(node);
  return answered(
    {
      id,
      kind: node.kind,
      label: node.label,
      ...(location !== undefined ? { location } : {}),
      ...(node.exported !== undefined ? { exported: node.exported } : {}),
      ...(node.signature !== undefined ? { signatureHash: node.signature } : {}),
      degree: g.degree[r],
      callers: cut(callers),
      candidates: cut(candidates),
      callees: cut(callees),
      calleeCandidates: cut(calleeCandidates),
      unresolved: cut(unresolved),
      totals: {
        callers: callers.length,
        candidates: candidates.length,
        callees: callees.length,
        calleeCandidates: calleeCandidates.length,
        unresolved: unresolved.length,
      },
      notes: why.available ? why.notes.slice(0, limit) : [],
      records: why.available ? why.records.slice(0, limit) : [],
      cited: why.available ? why.cited.slice(0, limit) : [],
    },
    opts,
  );
}
