// `kg diff [BASE] [HEAD]`: the structural diff of two graphs (ADR 104) — each side a graph.json
// file, a git ref (built from its tree in a private folder and cached, ADR 106) or, for HEAD by
// default, the working tree — as JSON or as a bounded pull-request comment (ADR 105).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffMarkdown, diffReport, jsonForPeople, type DiffReport } from '../graph';
import { defaultBranch, gitTopLevel, identicalMoves, mergeBase, RefError } from '../git/plumbing';
import { graphSide, isCachedRef, refSide, worktreeSide, type SideContext, type SideGraph } from './ref-graph';
import { findRepositoryRoot } from './find-root';
import type { ServerContext } from './server';
import { EXIT, type CliIo } from './streams';
import { COMMON_OPTIONS, optionLines, parseCommandArgs, UsageError } from './usage';

export const DIFF_HELP = `Usage: kg diff [BASE] [HEAD] [--format json|markdown] [--root DIR] [--link-base URL] [--link-head URL] [--no-server]

What a change does to the code graph, between BASE and HEAD. Each side is a graph.json file, or a
git ref (a branch, a tag, a commit): its tree is read from git's object store into a folder of
this user's and built there — incrementally from the nearest graph already built — and the graph
is cached by tree in this user's state folder, so a second run reads it. Nothing is checked out,
no repository code runs, the working tree and its graph are never written.

Where kg build would use a build server (not in CI, not with KG_SERVER=off), a ref is written
into the repository's kept folder by the files that differ from the tree it held last, and built
there by that folder's build server, whose programs stay warm: a ref near the last one builds in
a fraction of a full build. Otherwise each ref is exported into a private temporary folder and
built in this process.

BASE defaults to the merge base of HEAD with the default branch (origin's HEAD, else main, else
master); HEAD defaults to the working tree, built in place from its graph (nothing is written).

The JSON report (stdout, sorted, the same bytes for the same two graphs): files and symbols
added, removed, renamed (with how each was matched — the same bytes under a new path, the same
declarations, the same name and signature; a guess is only a "renameCandidate"), moved (position
only); signature changes (the declared-signature hash); for each removed, renamed or re-signed
symbol its consumers in BASE — proven (EXACT: these break) and guessed (CANDIDATE), apart — and
its blast radius; edges added and removed, counted by relation and confidence; new callers of
existing symbols; new UNRESOLVED calls with their reasons; records and notes citing what changed.
docs/cli.md lists every field.

Options:
  --format FORMAT  json (default) or markdown: a pull-request comment of at most 60,000
                   characters, one collapsed section per kind of change (docs/ci.md).
${optionLines([COMMON_OPTIONS.root], 17)}
  --link-base URL  Prefix of links to BASE's files in markdown ({commit} is replaced by its
                   commit); default: repository-relative links.
  --link-head URL  The same for HEAD's files.
  --no-server      Build refs in this process, each in a private temporary folder.
${optionLines([COMMON_OPTIONS.help], 17)}

Exit codes: 0 the report is printed; 2 bad usage or a ref git does not know (the message says
which; refs are never passed through a shell); 3 a side is unavailable: a graph file that cannot
be read, a clone too shallow to hold the merge base, no default branch to compare with, a tree kg
will not write (a path with .. or .git, one path twice, a file that is also a folder), files a
partial clone does not hold (kg never has git fetch them).
`;

function isGraphFile(cwd: string, spec: string): string | undefined {
  const abs = path.resolve(cwd, spec);
  try {
    if (fs.statSync(abs).isFile()) return abs;
  } catch {
    // not a file: a ref
  }
  return spec.endsWith('.json') ? abs : undefined;
}

/** Whether BASE's graph is at hand without a build: a graph.json file, or a named ref whose tree is cached. */
function baseReadsQuickly(root: string, baseSpec: string | undefined, baseFile: string | undefined): boolean {
  if (baseFile !== undefined) return true;
  return baseSpec !== undefined && isCachedRef(root, baseSpec);
}

/** BASE when none is named: the merge base of `headRef` with the default branch (origin's HEAD, else main, else master). */
export async function mergeBaseSide(headRef: string, ctx: SideContext): Promise<SideGraph> {
  const branch = defaultBranch(ctx.root);
  if (branch === undefined) throw new RefError('no default branch (origin/HEAD, main or master) to compare with: name BASE', 'unavailable');
  const mb = mergeBase(ctx.root, branch, headRef);
  ctx.log(`BASE is the merge base of ${headRef} with ${branch}: ${mb.slice(0, 12)}`);
  const side = await refSide(mb, ctx);
  side.side.spec = `merge-base(${branch}, ${headRef})`;
  return side;
}

export async function runDiff(args: string[], io: CliIo, server?: ServerContext): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      format: { type: 'string', default: 'json' },
      root: { type: 'string' },
      'link-base': { type: 'string' },
      'link-head': { type: 'string' },
      'no-server': { type: 'boolean', default: false },
    },
    true,
  );
  if (values.format !== 'json' && values.format !== 'markdown')
    throw new UsageError(`--format must be "json" or "markdown", not "${values.format}"`);
  if (positionals.length > 2) throw new UsageError(`at most two sides (BASE and HEAD), not ${positionals.length}`);
  const start = values.root !== undefined ? path.resolve(io.cwd, values.root) : findRepositoryRoot(io.cwd).root;
  const log = (m: string) => io.stderr.write(`kg: diff: ${m}\n`);
  try {
    const [baseSpec, headSpec] = positionals;
    const baseFile = baseSpec !== undefined ? isGraphFile(io.cwd, baseSpec) : undefined;
    const headFile = headSpec !== undefined ? isGraphFile(io.cwd, headSpec) : undefined;
    const needsGit = baseFile === undefined || headFile === undefined;
    const root = needsGit ? gitTopLevel(start) : start;
    if (root === undefined) throw new RefError(`${start} is not in a git repository: give both sides as graph.json files`, 'usage');
    const ctx: SideContext = { root, log, built: [], server: values['no-server'] ? undefined : server };
    const readBase = async (): Promise<SideGraph> => {
      if (baseFile !== undefined) return graphSide(baseSpec as string, baseFile);
      if (baseSpec !== undefined) return refSide(baseSpec, ctx);
      return mergeBaseSide(headSpec !== undefined && headFile === undefined ? headSpec : 'HEAD', ctx);
    };
    const headIsRef = headFile === undefined && headSpec !== undefined;
    let base: SideGraph;
    let head: SideGraph;
    if (ctx.server && headIsRef && baseReadsQuickly(root, baseSpec, baseFile)) {
      // BASE needs no build (a graph file, or a ref in the cache): HEAD's build goes first, and
      // this process reads BASE while the build server builds HEAD (ADR 135).
      let early: Promise<SideGraph> | undefined;
      ctx.meanwhile = () => {
        ctx.meanwhile = undefined;
        early = readBase();
        early.catch(() => {}); // awaited below; its error is reported there
      };
      head = await refSide(headSpec, ctx);
      ctx.meanwhile = undefined;
      base = await (early ?? readBase());
    } else {
      base = await readBase();
      head =
        headFile !== undefined
          ? graphSide(headSpec as string, headFile)
          : headSpec !== undefined
            ? await refSide(headSpec, ctx)
            : worktreeSide(ctx);
    }
    const moves = base.tree !== undefined && head.tree !== undefined ? identicalMoves(root, base.tree, head.tree) : [];
    const report: DiffReport = diffReport(
      { base: base.graph, head: head.graph, identicalMoves: moves, indexed: { base: base.indexed, head: head.indexed } },
      { base: base.side, head: head.side },
    );
    for (const p of report.problems) io.stderr.write(`kg: note: ${p}\n`);
    const s = report.summary;
    log(
      `${s.symbols.added} added, ${s.symbols.removed} removed, ${s.symbols.renamed} renamed, ${s.symbols.signatureChanged} signature changes; ` +
        `${s.breaking.symbols} break ${s.breaking.provenConsumers} proven consumers (${s.breaking.guessedConsumers} guessed)`,
    );
    io.stdout.write(
      values.format === 'markdown'
        ? diffMarkdown(report, { linkBase: values['link-base'], linkHead: values['link-head'] })
        : jsonForPeople(report) + '\n',
    );
    return EXIT.OK;
  } catch (e) {
    return sideErrorExit(e, io, 'diff');
  }
}

/**
 * A side that cannot be read (RefError): its message on stderr and the exit code, with a degrade
 * on stdout when it is unavailable rather than misused. Anything else is rethrown.
 */
export function sideErrorExit(e: unknown, io: CliIo, command: string): number {
  if (!(e instanceof RefError)) throw e;
  io.stderr.write(`kg: ${command}: ${e.message}\n`);
  if (e.kind === 'usage') return EXIT.USAGE;
  io.stdout.write(JSON.stringify({ available: false, reason: e.message, evidenceClass: 'GRAPH_DERIVED' }) + '\n');
  return EXIT.UNAVAILABLE;
}
