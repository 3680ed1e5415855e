// The worker thread that holds one folder's graph (dist/graph-worker.js). It loads graph.json with
// the engine's own loader and indexes, and answers the graph service's small requests one at a
// time; the extension host never parses, indexes or walks the graph itself
// (docs/adr/0060-the-graph-lives-in-a-worker-thread.md). A new graph means a new worker: the
// service swaps workers once the new one has loaded, so the old graph answers meanwhile.

import * as fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import {
  answerOn,
  answerQuery,
  createEditorGuard,
  declaredSymbols,
  examineGraph,
  formatDoctorReport,
  graphStatus,
  isGraphError,
  loadGraphFile,
  manifestPathFor,
  namesFor,
  packageFileSymbols,
  parseManifest,
  type EditorGuard,
  type EditorQueryName,
  type GraphLoad,
  type IndexedGraph,
} from '../graph';
import { answerQueryOn, ArgumentError, sharedArgs } from '../agent/answer';
import { scopeArg } from '../agent/organisation';
import { TOOL_BY_NAME } from '../agent/tool-definitions';
import type { HeldBaselines, WorkerOp, WorkerReplyMessage, WorkerRequestMessage, WorkerRequests } from '../protocol/graph-worker';

let load: GraphLoad | undefined;

/**
 * The breaking-change guard over this worker's graph (ADR-73, ADR-84), indexed on the first edit it is
 * asked about: a folder in advisory never pays for the index. Baselines held by the previous
 * worker's guard wait in `restored` until then.
 */
let guard: EditorGuard | undefined;
let restored: HeldBaselines = [];

function editorGuard(): EditorGuard {
  if (guard) return guard;
  const g = createEditorGuard();
  g.setGraph(graph());
  g.restoreHeld(restored);
  restored = [];
  return (guard = g);
}

function graph(): IndexedGraph {
  if (!load) throw new Error('no graph is loaded in this worker');
  if (!load.ok) throw new Error(load.unavailable.reason);
  return load.graph;
}

/** The last manifest's recorded hashes, kept while its text is the same (a verdict per save reads it again). */
let built: { text: string; hashes: Record<string, string> } | undefined;

/** What the manifest records of each file the build read: its SHA-256 by repository-relative path. */
function builtHashes(text: string): Record<string, string> {
  if (built?.text === text) return built.hashes;
  const parsed = parseManifest(text);
  if ('problem' in parsed) return {};
  const m = parsed.manifest;
  const hashes: Record<string, string> = { ...m.inputs, ...m.documents };
  for (const [f, x] of Object.entries(m.files)) hashes[f] = x.sha256;
  built = { text, hashes };
  return hashes;
}

type Handlers = { [K in WorkerOp]: (args: WorkerRequests[K]['args']) => WorkerRequests[K]['result'] };
type OwnHandlers = Omit<Handlers, EditorQueryName>;

/** The editor's graph questions: each the catalogue's answer over this worker's graph. */
const catalogueHandlers = Object.fromEntries(
  namesFor('editor').map((name) => [name, (args: never) => answerOn(graph(), name, args)]),
) as Pick<Handlers, EditorQueryName>;

const ownHandlers: OwnHandlers = {
  load({ file }) {
    const t0 = performance.now();
    load = loadGraphFile(file);
    guard = undefined;
    if (!load.ok) return { ok: false, code: load.unavailable.code, reason: load.unavailable.reason };
    const g = load.graph;
    return {
      ok: true,
      nodes: g.nodeCount,
      edges: g.graph.edges.length,
      layers: [...g.graph.layers],
      callsLayer: g.layers.has('calls'),
      signature: g.graph.graphSignature,
      ...(g.graph.repository !== undefined ? { repository: g.graph.repository } : {}),
      loadMs: performance.now() - t0,
    };
  },
  status({ root, file }) {
    let graphText: string | undefined;
    let manifestText: string | undefined;
    try {
      graphText = fs.readFileSync(file, 'utf8');
      manifestText = fs.readFileSync(manifestPathFor(file), 'utf8');
    } catch {
      // graphStatus says which of the two is missing
    }
    try {
      const s = graphStatus(root, { graphText, manifestText });
      return s.available
        ? { known: true, changedFiles: s.changedFiles, built: builtHashes(manifestText as string) }
        : { known: false, reason: s.reason };
    } catch (e) {
      return { known: false, reason: (e as Error).message };
    }
  },
  agent({ tool, input, root, file, changedFiles }) {
    if (!load) throw new Error('no graph is loaded in this worker');
    const t = TOOL_BY_NAME.get(tool);
    if (t?.kind !== 'query') return { ok: false, text: `unknown tool "${tool}"` };
    const args = { ...input };
    delete args.root; // the editor answers about the folder it asked for
    try {
      const shared = sharedArgs(args, root, root, (d) => d, t.paged);
      // The organisation's questions are the editor's to ask of its store (lm-tools.ts); here, the folder's graph.
      if (scopeArg(args, t.scoped) === 'organisation')
        return { ok: false, text: `${tool}: scope "organisation" is asked of the store, not of the folder's graph` };
      const staleness = changedFiles ? { stale: changedFiles.length > 0, changedFiles } : undefined;
      return answerQueryOn({ tool: t, args, shared }, { root, file, load, staleness });
    } catch (e) {
      if (e instanceof ArgumentError) return { ok: false, text: `${tool}: ${e.message}. See the tool's input schema.` };
      throw e;
    }
  },
  query({ request }) {
    if (!load) throw new Error('no graph is loaded in this worker');
    return answerQuery(load, request);
  },
  doctor({ file }) {
    try {
      const report = examineGraph(JSON.parse(fs.readFileSync(file, 'utf8')));
      return { ok: report.ok, text: formatDoctorReport(report, file) };
    } catch (e) {
      return { ok: false, text: `doctor: ${file}: ${isGraphError(e) ? e.message : (e as Error).message}` };
    }
  },
  guard({ file, text, mode }) {
    const g = editorGuard();
    g.setMode(mode);
    const r = g.check(file, text);
    return { diagnostics: r.diagnostics, log: r.log };
  },
  guardWarm() {
    const t0 = performance.now();
    declaredSymbols('kg-warm.ts', 'export function warm(): void {}\n');
    return performance.now() - t0;
  },
  packageFileSymbols({ pkg, version, path, text }) {
    return packageFileSymbols(graph(), pkg, version, path, declaredSymbols(path, text));
  },
  guardHeld() {
    return guard ? guard.held() : restored;
  },
  guardRestore({ held }) {
    if (guard) guard.restoreHeld(held);
    else restored = [...restored, ...held];
    return null;
  },
  guardAccept({ file }) {
    if (guard) guard.accept(file);
    restored = file === undefined ? [] : restored.filter(([f]) => f !== file);
    return null;
  },
};

const handlers: Handlers = { ...ownHandlers, ...catalogueHandlers };

parentPort?.on('message', (msg: WorkerRequestMessage) => {
  let reply: WorkerReplyMessage;
  try {
    const handler = handlers[msg.op] as (args: unknown) => unknown;
    reply = { seq: msg.seq, ok: true, result: handler(msg.args) };
  } catch (e) {
    reply = { seq: msg.seq, ok: false, error: (e as Error).message ?? String(e) };
  }
  parentPort?.postMessage(reply);
});
