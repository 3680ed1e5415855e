// The resolution tier: extraction plus resolution, one program per project (parsed files shared
// between programs), each file's call sites and heritage clauses answered by the checker behind
// its seam. Two walker objects hold what its phases share (ADR 183): `ResolutionTier` the build's
// (the texts, the parse cache, each file's extraction, the resolution sink), `ProjectPass` one
// project's (its fresh and carried files, its parses, its backend, its files' questions).

import * as ts from 'typescript';
import { packageSymbolId, symbolId } from '../../ids';
import { collectSites, type Site } from './calls';
import { commentCitations } from '../rationale/comments';
import { TsCheckerBackend, type CheckerBackend, type DeclarationRef, type SymbolAnswer } from './checker';
import type { Project } from './discover';
import { extractFile, parseSource, type FileExtraction } from './extract';
import type { ImportOutcome } from './imports';
import type { SourceInput } from './sources';
import { createProjectProgram, parseAsProgram, SourceFileCache, takeScreenedTrees } from './program';
import { ResolutionSink, type DeclarationLookup, type ProvenTarget } from './resolve';
import { PackageSymbols } from './packages';
import { blankBodies } from './file-shape';
import { shapeAndSurface } from './surface';
import { sourceNotes } from '../rationale/notes';
import { componentKind } from '../components/kinds';
import { firstLine, openProvided } from './provided-backend';
import { checkCancelled, emitCarried, importEdges, type TierContext, type TierOutput } from './tiers';
import type { CarriedFacts, FileRecord } from './builder';

/**
 * The declarations' positions extracted from a parse, by that parse (see `declarationsOf` in
 * ResolutionTier). Held only as long as the parse is.
 */
const DECLARATIONS_BY_TREE = new WeakMap<ts.SourceFile, { rel: string; declarations: Map<number, string> }>();

/**
 * Extraction plus resolution: one program per project (parsed files shared between programs),
 * each file's call sites and heritage clauses answered by the checker behind its seam.
 */
export function resolutionTier(ctx: TierContext): TierOutput {
  const tier = new ResolutionTier(ctx);
  for (const project of ctx.discovery.projects) tier.project(project);
  return tier.finish();
}

/** A file's questions: its sites, the ones asked, and the first of each set that denote the same declarations. */
interface Questions {
  extraction: FileExtraction;
  sites: Site[];
  asked: Site[];
  firstWithKey: Map<string, Site>;
}

/** A fresh file gathered for the checker: its parse, its questions and its record, awaiting the answers. */
interface Asking extends Questions {
  rel: string;
  input: SourceInput;
  sf: ts.SourceFile;
  record: FileRecord;
}

/** What the whole tier shares across its projects. */
class ResolutionTier {
  readonly out: TierOutput = { nodes: [], edges: [] };
  /** Carried files the programs may read with their bodies blank (ADR 129), by absolute path. */
  readonly blanked = new Set<string>();
  /** Of those, the ones a program did read. */
  readonly read = new Set<string>();
  readonly byPath: Map<string, SourceInput>;
  readonly cache: SourceFileCache;
  private readonly extractions = new Map<string, FileExtraction>();
  readonly resolution: ResolutionSink;
  readonly packages: PackageSymbols;
  /** Files emitted so far, for the progress report. */
  done = 0;

  constructor(readonly ctx: TierContext) {
    const { root, host, inputs, reuse, programs: store } = ctx;
    const texts = new Map(inputs.map((i) => [root + '/' + i.path, i.text]));
    // A one-shot build's programs hold a carried file only for its types: its recorded bodies are
    // read as blanks (ADR 129). A session keeps its programs for later builds, which may resolve
    // any file, and another checker reads the files itself: both read every byte.
    if (!store && !ctx.checker && reuse?.blankable) {
      for (const i of inputs) {
        // A component's code is read whole: its map is for that text, and it stands for the component (ADR 169).
        const blank = componentKind(i.path) === undefined ? reuse.blankable(i) : undefined;
        if (!blank) continue;
        texts.set(root + '/' + i.path, blankBodies(i.text, blank));
        this.blanked.add(root + '/' + i.path);
      }
    }
    this.byPath = new Map(inputs.map((i) => [i.path, i]));
    this.cache = new SourceFileCache(texts, host, store?.files);
    // The screen's trees: held from here by the cache alone, so they go when this tier's cache goes.
    takeScreenedTrees(this.cache, ctx.screenedTrees, this.byPath, root, ctx.resolver);
    this.resolution = new ResolutionSink(ctx.summary, ctx.listExternal);
    this.packages = new PackageSymbols(host, root, (rel) => this.byPath.has(rel));
  }

  /** One project's files: the carried ones emitted, the fresh ones extracted and resolved. */
  project(project: Project): void {
    const owned = project.files.filter((f) => this.byPath.has(f));
    if (owned.length === 0) return;
    new ProjectPass(this, project, owned).run();
  }

  finish(): TierOutput {
    this.resolution.matchNames(this.out.nodes);
    this.out.edges.push(...this.resolution.edges);
    this.ctx.blanked = this.read.size;
    return this.out;
  }

  /**
   * A declaration file outside the graph (a package's .d.ts), parsed once, for a provider's backend
   * that has no JavaScript program: its declarations' positions, and the package placement (ADR 107).
   */
  parseDeclarationFile(abs: string): ts.SourceFile | undefined {
    return /\.d\.[cm]?ts$/.test(abs) && !this.cache.isDefaultLib(abs)
      ? this.cache.get(abs, { languageVersion: ts.ScriptTarget.Latest }, 'declaration')
      : undefined;
  }

  extractionOf(rel: string, sf: ts.SourceFile): FileExtraction {
    let e = this.extractions.get(rel);
    if (!e) {
      e = extractFile(sf, rel);
      this.extractions.set(rel, e);
      DECLARATIONS_BY_TREE.set(sf, { rel, declarations: e.declarations });
    }
    return e;
  }

  /**
   * Where a checker's answer lands: a declaration's node, by its file's parse. A session's rebuild
   * keeps the parse of every file that did not change, so the files its calls reach are not
   * extracted again at each build (ADR 139).
   */
  declarationsOf(rel: string, sf: ts.SourceFile): Map<number, string> {
    const kept = this.extractions.has(rel) ? undefined : DECLARATIONS_BY_TREE.get(sf);
    return kept && kept.rel === rel ? kept.declarations : this.extractionOf(rel, sf).declarations;
  }

  /** One more file emitted: the progress report, and the build's chance to stop. */
  count(): void {
    const { inputs, sink } = this.ctx;
    this.done++;
    if (this.done % 100 === 0 || this.done === inputs.length) {
      sink?.progress?.('resolve', this.done, inputs.length);
      checkCancelled(sink);
    }
  }
}

/**
 * One project's pass, in its phases: open a provider's backend, send a rebuild's fresh files to it
 * early, emit the carried files, make the JavaScript backend when no provider serves, gather every
 * fresh file's facts and questions, ask, then resolve each file's sites with the answers. It is
 * also where a checker's answer is placed (`DeclarationLookup`).
 */
class ProjectPass implements DeclarationLookup {
  /** Files an incremental build does not carry: parsed, extracted and resolved here. */
  private readonly fresh: string[] = [];
  private readonly carried: Array<[SourceInput, CarriedFacts]> = [];
  /** The roots of the project's program. */
  private readonly roots: readonly string[];
  private readonly parsed = new Map<string, ts.SourceFile>();
  private opened: CheckerBackend | undefined;
  private program: ts.Program | undefined;
  /** Questions already sent to a checker in another process, by file. */
  private readonly sentEarly = new Map<string, Questions>();
  private readonly asking: Asking[] = [];
  private readonly root: string;

  constructor(
    private readonly tier: ResolutionTier,
    private readonly project: Project,
    owned: readonly string[],
  ) {
    const { root, reuse, programs: store } = tier.ctx;
    this.root = root;
    // Files an incremental build carries need no program; the others get one whose roots are
    // them and the project's files that declare globals (what the rest imports comes along).
    for (const rel of owned) {
      const input = tier.byPath.get(rel) as SourceInput;
      const carried = reuse?.carry(input);
      if (carried) this.carried.push([input, carried]);
      else this.fresh.push(rel);
    }
    // A session keeps whole programs, which the compiler reuses from one build to the next.
    this.roots =
      store || this.fresh.length === owned.length ? owned : [...new Set([...this.fresh, ...(reuse?.extraRoots?.(project) ?? [])])].sort();
  }

  run(): void {
    if (this.fresh.length === 0) {
      this.emitCarried();
      return;
    }
    const { ctx } = this.tier;
    this.opened = ctx.checker
      ? openProvided(
          ctx,
          this.project,
          this.roots,
          (rel) => this.parseOwn(rel),
          (abs) => this.tier.parseDeclarationFile(abs),
        )
      : undefined;
    // A rebuild's few changed files go to a checker in another process before the carried files
    // are emitted, so it checks them while this process does that (ADR 139). The order of what is
    // emitted does not change.
    if (this.carried.length > 0 && this.opened?.prefetch) {
      for (const rel of this.fresh) {
        const q = this.questionsOf(rel, this.parseOwn(rel));
        this.sendEarly(rel, q.asked);
        this.sentEarly.set(rel, q);
      }
    }
    this.emitCarried();
    const backend = this.opened ?? this.jsBackend();
    // Every file's facts that need no checker first, and its questions; then the checker answers
    // them all, so a backend that fails part-way is replaced for the whole project (ADR 114).
    for (const rel of this.fresh) this.gather(rel);
    this.settle(this.answers(backend));
  }

  private emitCarried(): void {
    const { ctx, out, resolution } = this.tier;
    for (const [input, carried] of this.carried) emitCarried(ctx, out, input, carried, resolution);
    this.tier.done += this.carried.length;
  }

  /** A provider's backend parses nothing here: the builder's own parse of each file, shared by the cache. */
  private parseOwn(rel: string): ts.SourceFile {
    let sf = this.parsed.get(rel);
    if (!sf) {
      const abs = this.root + '/' + rel;
      const input = this.tier.byPath.get(rel) as SourceInput;
      const format = this.tier.ctx.resolver.impliedFormat(input.project, abs);
      sf = parseAsProgram(this.tier.cache, this.project, abs, format) ?? parseSource(abs, input.text, format);
      this.parsed.set(rel, sf);
    }
    return sf;
  }

  /** A file's questions: its sites, and the first of each set that denote the same declarations. */
  private questionsOf(rel: string, sf: ts.SourceFile): Questions {
    const extraction = this.tier.extractionOf(rel, sf);
    const sites = collectSites(sf, extraction);
    // Sites that share a key denote the same declarations: ask about the first of each.
    const asked: Site[] = [];
    const firstWithKey = new Map<string, Site>();
    for (const s of sites) {
      if (s.position === undefined) continue;
      if (s.shareKey !== undefined) {
        if (firstWithKey.has(s.shareKey)) continue;
        firstWithKey.set(s.shareKey, s);
      }
      asked.push(s);
    }
    return { extraction, sites, asked, firstWithKey };
  }

  private sendEarly(rel: string, asked: readonly Site[]): void {
    this.opened?.prefetch?.(
      this.root + '/' + rel,
      asked.map((s) => ({ position: s.position as number, hint: s.hint })),
    );
  }

  private jsBackend(): CheckerBackend {
    const { root, tier, project } = this;
    const store = tier.ctx.programs;
    const program = createProjectProgram(
      root,
      project,
      this.roots.map((f) => root + '/' + f),
      tier.cache,
      tier.ctx.resolver,
      store?.programs.get(project.configPath),
    );
    this.program = program;
    store?.programs.set(project.configPath, program);
    if (tier.blanked.size > 0) for (const sf of program.getSourceFiles()) if (tier.blanked.has(sf.fileName)) tier.read.add(sf.fileName);
    return new TsCheckerBackend(program);
  }

  private sourceFileOf(rel: string): ts.SourceFile {
    const abs = this.root + '/' + rel;
    return this.program?.getSourceFile(abs) ?? this.parseOwn(rel);
  }

  /** A fresh file's facts that need no checker, emitted; its questions kept for the checker. */
  private gather(rel: string): void {
    const { ctx, out } = this.tier;
    const { resolver, summary, listExternal, rationale } = ctx;
    const input = this.tier.byPath.get(rel) as SourceInput;
    const sf = this.sourceFileOf(rel);
    const early = this.sentEarly.get(rel);
    const { extraction, sites, asked, firstWithKey } = early ?? this.questionsOf(rel, sf);
    const outcomes: ImportOutcome[] = [];
    const cites = commentCitations(sf, rel, extraction.declarations);
    const notes = sourceNotes(sf, rel, extraction.declarations);
    rationale.addNotes(rel, notes);
    out.nodes.push(...extraction.nodes);
    out.edges.push(...extraction.edges, ...importEdges(resolver, input, extraction, summary, listExternal, outcomes));
    out.edges.push(...rationale.cite(cites));
    // A checker in another process may start on this file's questions while the rest are gathered.
    if (!early) this.sendEarly(rel, asked);
    const record: FileRecord = {
      path: rel,
      sha256: input.sha256,
      project: this.project.configPath,
      imports: extraction.imports,
      outcomes,
      cites,
      notes,
      residue: { counted: {}, sites: [] },
      shape: shapeAndSurface(sf, extraction.imports),
      carried: false,
    };
    this.asking.push({ rel, input, sf, extraction, sites, asked, firstWithKey, record });
  }

  /**
   * Every gathered file's answers. Hints are nodes of the parse the sites came from; a program
   * made after them (a fallback) may hold its own parse of a file, so it is asked by position alone.
   */
  private ask(b: CheckerBackend, hints: boolean): SymbolAnswer[][] {
    return this.asking.map((f) =>
      b.declarationsAt(
        this.root + '/' + f.rel,
        f.asked.map((s) => ({ position: s.position as number, hint: hints ? s.hint : undefined })),
      ),
    );
  }

  /** The answers of the provider's backend, or of the JavaScript one when it fails part-way (ADR 114). */
  private answers(backend: CheckerBackend): SymbolAnswer[][] {
    const { opened } = this;
    if (!opened) return this.ask(backend, true);
    const { report, checker } = this.tier.ctx;
    try {
      const answers = this.ask(opened, true);
      report.served.push(this.project.configPath);
      if (opened.adjusted) (report.adjusted ??= []).push({ project: this.project.configPath, note: opened.adjusted });
      return answers;
    } catch (e) {
      report.fallbacks.push({ project: this.project.configPath, reason: `the ${checker?.name} checker failed (${firstLine(e)})` });
      return this.ask(this.jsBackend(), false);
    } finally {
      checker?.release(opened);
    }
  }

  /** Each gathered file's sites resolved with the answers, its residue recorded, in order. */
  private settle(answers: SymbolAnswer[][]): void {
    const { resolution, ctx } = this.tier;
    this.asking.forEach((f, i) => {
      const answerOf = new Map(f.asked.map((s, j) => [s, answers[i][j]]));
      const from = resolution.edges.length;
      for (const site of f.sites) {
        const representative = site.shareKey !== undefined ? (f.firstWithKey.get(site.shareKey) as Site) : site;
        resolution.accept(f.sf, f.rel, site, answerOf.get(representative), this);
      }
      resolution.settle(from);
      f.record.residue = resolution.residues.get(f.rel) ?? { counted: {}, sites: [] };
      ctx.files.push(f.record);
      this.tier.count();
    });
  }

  classify(file: string): ReturnType<DeclarationLookup['classify']> {
    const { root, tier } = this;
    if (!file.startsWith(root + '/') || tier.cache.isDefaultLib(file)) return { kind: 'outside', reason: 'external' };
    const rel = file.slice(root.length + 1);
    if (rel.split('/').includes('node_modules')) return { kind: 'outside', reason: 'external' };
    return tier.byPath.has(rel) ? { kind: 'graph', path: rel } : { kind: 'outside', reason: 'excluded' };
  }

  nodeAt(rel: string, nameStart: number): string | undefined {
    return this.tier.declarationsOf(rel, this.sourceFileOf(rel)).get(nameStart);
  }

  throughDeclarationFile(decl: DeclarationRef): ProvenTarget | undefined {
    // Under the native checker there is no JavaScript program: the declaration file is parsed
    // here (parser only, cached), so a package's call is placed the same way (ADR 107, ADR 114).
    const { program, tier } = this;
    const dsf = tier.cache.isDefaultLib(decl.file)
      ? undefined
      : program
        ? program.getSourceFile(decl.file)
        : tier.parseDeclarationFile(decl.file);
    const p = dsf && tier.packages.place(dsf, decl.nameStart);
    if (!p) return undefined;
    const byMap = p.proof === 'map';
    if (p.kind === 'package') {
      return {
        target: packageSymbolId(p.pkg, p.version, p.path, p.name),
        provenance: byMap ? 'TYPESCRIPT_CHECKER' : 'TYPESCRIPT_PROJECT_REFERENCE',
        resolutionClass: byMap ? 'EXACT_TYPECHECKED' : 'EXACT_PACKAGE_MAPPED',
      };
    }
    // A workspace package's built declarations: the node of its source, as a direct call gets.
    const sf = this.sourceFileOf(p.path);
    const extraction = tier.extractionOf(p.path, sf);
    let id: string | undefined;
    if (p.position && p.position.line < sf.getLineStarts().length) {
      id = extraction.declarations.get(sf.getLineStarts()[p.position.line] + p.position.character);
    }
    const named = symbolId(p.path, p.name);
    if (id === undefined && extraction.nodes.some((n) => n.id === named)) id = named;
    if (id === undefined) return undefined;
    const proven: ProvenTarget = byMap
      ? { target: id, provenance: 'TYPESCRIPT_CHECKER' }
      : { target: id, provenance: 'TYPESCRIPT_PROJECT_REFERENCE', resolutionClass: 'EXACT_PACKAGE_MAPPED' };
    return proven;
  }
}
