// The rationale layer: decision records (`adr:` nodes), documentation headings (`doc:` nodes) and
// `cites` edges — from a record to the files, symbols, headings and records it names, and from
// source code to the records its comments name. Markdown files become `file:` nodes, so they sit
// in modules like sources. The decisions behind this file: ADR-40 (what is a record, what is a
// documentation file), ADR-41 (comments), ADR-42 (what a record's markdown cites), ADR-88 (stamped
// notes: `rationale:` nodes from `WHY(area@stamp): …` comments in sources and markdown), ADR-160
// (a record's status line: its node's `status`, and the relation its `cites` edges to other records carry).

import * as path from 'node:path';
import type * as ts from 'typescript';
import { adrId, docId, fileId, moduleId, rationaleId, symbolId, unresolvedId } from '../../ids';
import type { BuildDiagnostic, Evidence, GraphEdge, GraphNode, UnresolvedReason, UnresolvedSummary } from '../../model';
import { commentCitations, type CommentCitation } from './comments';
import { configSection, readRepositoryConfig, reportUnknownKeys, repoPathList } from '../files/repository-config';
import { isSourceFileName, type WalkResult } from '../files/walk';
import { exactEdge, unresolvedEdge } from '../edges';
import type { FileHost } from '../files/file-host';
import { decodeUtf8, notUtf8Reason } from '../files/read';
import { parseMarkdown, slugify, type MdDocument } from './markdown';
import type { MdPathRef } from '../facts';
import { markdownNotes, type SourceNote } from './notes';
import { parseStatusLine, statusParagraph, type StatusLine } from './record-status';

/** Where decision records live when the config does not say (ADR 40). */
const DEFAULT_RECORD_FOLDERS: readonly string[] = ['adr', 'decisions', 'doc/adr', 'docs/adr', 'docs/decisions'];
/** Which markdown files are documentation when the config does not say: all of them ('' = the root). */
const DEFAULT_DOC_PATHS: readonly string[] = [''];

interface RationaleSettings {
  /** Folders (repository-relative) whose numbered markdown files are decision records. */
  recordFolders: string[];
  /** Folders or files whose other markdown files are documentation ('' = the whole repository). */
  docPaths: string[];
}

const SECTION = 'rationale';

/** The `rationale` section of `.knowledge-graph/config.json`, validated; problems become diagnostics. */
function rationaleSettings(config: Record<string, unknown>, diagnostics: BuildDiagnostic[]): RationaleSettings {
  const section = configSection(config, SECTION, diagnostics);
  reportUnknownKeys(section, SECTION, ['docPaths', 'recordFolders'], diagnostics);
  return {
    recordFolders: repoPathList(section, SECTION, 'recordFolders', DEFAULT_RECORD_FOLDERS, diagnostics),
    docPaths: repoPathList(section, SECTION, 'docPaths', DEFAULT_DOC_PATHS, diagnostics),
  };
}

/** A record's number is the leading number of its file name: `0007-use-postgres.md` → 7. */
export function recordNumber(fileName: string): number | undefined {
  const m = /^(\d{1,15})(?!\d)/.exec(fileName);
  return m ? Number(m[1]) : undefined;
}

function under(p: string, dir: string): boolean {
  return dir === '' || p === dir || p.startsWith(dir + '/');
}

function dirOf(p: string): string {
  const d = path.posix.dirname(p);
  return d === '.' ? '' : d;
}

interface MarkdownInput {
  path: string;
  doc: MdDocument;
}

interface DecisionRecord extends MarkdownInput {
  num: number;
  node: GraphNode;
  /** What its status line says (ADR 160). */
  statusLine: StatusLine;
}

/** What the rationale layer adds to the graph, and the markdown files it made file nodes for. */
export interface RationaleOutput {
  nodes: GraphNode[];
  edges: GraphEdge[];
  files: string[];
}

export interface RationaleContext {
  host: FileHost;
  /** Absolute POSIX root, no trailing slash. */
  root: string;
  walk: WalkResult;
  maxFileBytes: number;
  /** Where problems go (duplicate record numbers, config, unreadable markdown). */
  diagnostics: BuildDiagnostic[];
  /** Where unresolved citations are counted. */
  summary: UnresolvedSummary;
}

/** Reads a markdown file as UTF-8; binary, non-UTF-8, oversized and unreadable files are reported and skipped. */
function readMarkdown(ctx: RationaleContext, rel: string): string | undefined {
  const abs = ctx.root + '/' + rel;
  try {
    const st = ctx.host.stat(abs);
    if (st && st.size > ctx.maxFileBytes) {
      ctx.diagnostics.push({ path: rel, reason: `file too large (${st.size} bytes; the limit is ${ctx.maxFileBytes})` });
      return undefined;
    }
    const bytes = ctx.host.readFile(abs);
    if (bytes.indexOf(0) >= 0) {
      ctx.diagnostics.push({ path: rel, reason: 'binary file (contains NUL bytes)' });
      return undefined;
    }
    const text = decodeUtf8(bytes);
    if (text === undefined) {
      ctx.diagnostics.push({ path: rel, reason: notUtf8Reason(bytes) });
      return undefined;
    }
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    ctx.diagnostics.push({ path: rel, reason: `unreadable file (${typeof code === 'string' ? code : 'error'})` });
    return undefined;
  }
}

function markdownFileNode(p: string): GraphNode {
  return { id: fileId(p), kind: 'file', label: path.posix.basename(p), sourceFile: p };
}

/** GitHub's anchors for a file's headings: the slug, then `slug-1`, `slug-2` … for repeats. */
function anchorMap(headingSlugs: readonly string[], ids: readonly string[]): Map<string, string> {
  const anchors = new Map<string, string>();
  const repeats = new Map<string, number>();
  headingSlugs.forEach((slug, k) => {
    let anchor = slug;
    if (anchors.has(anchor)) {
      let n = repeats.get(slug) ?? 0;
      do {
        n++;
        anchor = `${slug}-${n}`;
      } while (anchors.has(anchor));
      repeats.set(slug, n);
    }
    anchors.set(anchor, ids[k]);
  });
  return anchors;
}

/** `#L10`, `#L10-L20`, `#L10C2`: a line anchor on a source file names the file. */
const LINE_ANCHOR = /^L\d+(C\d+)?(-L\d+(C\d+)?)?$/;
/** A code span is read as a path only when it is made of path characters. */
const PATH_CHARS = /^[\w@.+\-/]+$/;
/** A missing path in a code span is reported only when it clearly is one: a folder and a known extension. */
const CLEARLY_A_FILE = /\/[^/]*\.(?:[cm]?[jt]sx?|md|markdown)$/;

type Resolution = { target: string } | { reason: UnresolvedReason; name: string } | undefined;

export class RationaleLayer {
  private readonly records = new Map<number, DecisionRecord>();
  private readonly recordFiles: MarkdownInput[] = [];
  private readonly docFiles: MarkdownInput[] = [];
  /** Each source file's stamped notes, as its extraction (or the manifest) gave them. */
  private readonly sourceNotes = new Map<string, readonly SourceNote[]>();

  private constructor(private readonly ctx: RationaleContext) {}

  /** Reads the config and every markdown file the walk found; classifies records and documentation. */
  static start(ctx: RationaleContext): RationaleLayer {
    const layer = new RationaleLayer(ctx);
    const config = readRepositoryConfig(ctx.host, ctx.root);
    ctx.diagnostics.push(...config.diagnostics);
    const settings = rationaleSettings(config.value, ctx.diagnostics);
    const recordFolders = new Set(settings.recordFolders);
    // The walk lists markdown files sorted by path, so the first record with a number wins it.
    for (const p of ctx.walk.markdownFiles) {
      const num = recordFolders.has(dirOf(p)) ? recordNumber(path.posix.basename(p)) : undefined;
      const isDoc = num === undefined && settings.docPaths.some((d) => under(p, d));
      if (num === undefined && !isDoc) continue;
      const text = readMarkdown(ctx, p);
      if (text === undefined) continue;
      const input = { path: p, doc: parseMarkdown(text) };
      if (num === undefined) {
        layer.docFiles.push(input);
        continue;
      }
      const status = statusParagraph(text);
      layer.recordFiles.push(input);
      const winner = layer.records.get(num);
      if (winner) {
        ctx.diagnostics.push({
          path: p,
          reason: `duplicate decision record number ${num}: ${adrId(num)} is ${winner.path} (the first path in sorted order); this file is not a record`,
        });
        continue;
      }
      layer.records.set(
        num,
        layer.recordNode(input, num, status === undefined ? { status: undefined, relations: [] } : parseStatusLine(status)),
      );
    }
    return layer;
  }

  private recordNode(input: MarkdownInput, num: number, statusLine: StatusLine): DecisionRecord {
    const first = input.doc.headings[0];
    const label = first?.text || path.posix.basename(input.path).replace(/\.(md|markdown)$/i, '');
    const node: GraphNode = {
      id: adrId(num),
      kind: 'rationale',
      label,
      sourceFile: input.path,
      line: first?.line ?? 1,
      column: first?.column ?? 1,
      ...(statusLine.status !== undefined ? { status: statusLine.status } : {}),
    };
    const named = /^ADR[-: ]0*(\d{1,9})(?!\w)/i.exec(label);
    if (named && Number(named[1]) !== num) {
      this.ctx.diagnostics.push({
        path: input.path,
        reason: `the heading names ADR ${Number(named[1])} but the file name numbers it ${num}; the file name decides (${adrId(num)})`,
      });
    }
    return { ...input, num, node, statusLine };
  }

  private unresolved(source: string, name: string, reason: UnresolvedReason, evidence: Evidence): GraphEdge {
    const byReason = (this.ctx.summary.cites ??= {});
    byReason[reason] = (byReason[reason] ?? 0) + 1;
    return unresolvedEdge(source, unresolvedId(name), 'cites', reason, { evidence, ast: true });
  }

  private recordCitation(source: string, num: number, evidence: Evidence): GraphEdge {
    return this.records.has(num)
      ? exactEdge(source, adrId(num), 'cites', 'DECISION_RECORD', { evidence, ast: true })
      : this.unresolved(source, `ADR-${num}`, 'unknown-record', evidence);
  }

  /** `cites` edges from a parsed source file's comments to the records they name. */
  sourceCites(sf: ts.SourceFile, relPath: string, declarations: ReadonlyMap<number, string>): GraphEdge[] {
    return this.cite(commentCitations(sf, relPath, declarations));
  }

  /** `cites` edges for comment citations found earlier (an incremental build keeps them in its manifest). */
  cite(citations: readonly CommentCitation[]): GraphEdge[] {
    return citations.map((c) => this.recordCitation(c.source, c.num, c.evidence));
  }

  /** Records a source file's stamped notes; `finish` makes them nodes and resolves what they name. */
  addNotes(relPath: string, notes: readonly SourceNote[]): void {
    if (notes.length > 0) this.sourceNotes.set(relPath, notes);
  }

  /** The layer's nodes and edges, with record citations resolved against the resolver's nodes. */
  finish(resolverNodes: readonly GraphNode[]): RationaleOutput {
    const out: RationaleOutput = { nodes: [], edges: [], files: [] };
    const contains = (from: string, to: GraphNode) =>
      exactEdge(from, to.id, 'contains', 'SYNTAX', {
        evidence: { file: to.sourceFile as string, line: to.line as number, column: to.column as number },
        ast: true,
      });

    for (const f of this.recordFiles) {
      out.files.push(f.path);
      out.nodes.push(markdownFileNode(f.path));
    }
    for (const r of this.records.values()) {
      out.nodes.push(r.node);
      out.edges.push(contains(fileId(r.path), r.node));
    }
    const anchors = new Map<string, Map<string, string>>();
    const notes: Array<[string, readonly SourceNote[]]> = [];
    for (const f of this.docFiles) {
      out.files.push(f.path);
      out.nodes.push(markdownFileNode(f.path));
      const repeats = new Map<string, number>();
      const slugs: string[] = [];
      const ids: string[] = [];
      // Each heading sits under the nearest heading before it with a smaller level, or the file.
      const open: Array<{ level: number; id: string }> = [];
      for (const h of f.doc.headings) {
        const slug = slugify(h.text);
        const index = repeats.get(slug) ?? 0;
        repeats.set(slug, index + 1);
        const node: GraphNode = {
          id: docId(f.path, slug, index),
          kind: 'doc-concept',
          label: h.text,
          sourceFile: f.path,
          line: h.line,
          column: h.column,
        };
        while (open.length > 0 && open[open.length - 1].level >= h.level) open.pop();
        out.nodes.push(node);
        out.edges.push(contains(open[open.length - 1]?.id ?? fileId(f.path), node));
        open.push({ level: h.level, id: node.id });
        slugs.push(slug);
        ids.push(node.id);
      }
      anchors.set(f.path, anchorMap(slugs, ids));
      // A note in a documentation file sits in the section of the last heading at or before it.
      const headings = f.doc.headings.map((h, k) => ({ line: h.line, id: ids[k] }));
      notes.push([f.path, markdownNotes(f.doc.comments, (line) => headings.filter((h) => h.line <= line).pop()?.id ?? fileId(f.path))]);
    }
    for (const f of this.recordFiles) {
      // A note in a decision record sits in the record; in a file that lost its number, in the file.
      const num = recordNumber(path.posix.basename(f.path));
      const owner = num !== undefined && this.records.get(num)?.path === f.path ? adrId(num) : fileId(f.path);
      notes.push([f.path, markdownNotes(f.doc.comments, () => owner)]);
    }
    for (const [p, list] of this.sourceNotes) notes.push([p, list]);

    const resolver = this.pathResolver(resolverNodes, out.files, anchors);
    for (const r of this.records.values()) {
      const source = r.node.id;
      const first = out.edges.length;
      const at = (x: { line: number; column: number }): Evidence => ({ file: r.path, line: x.line, column: x.column });
      for (const ref of r.doc.refs) {
        const res = resolver(ref, r.path);
        if (!res) continue;
        if ('target' in res) {
          if (res.target !== source)
            out.edges.push(exactEdge(source, res.target, 'cites', 'DECISION_RECORD', { evidence: at(ref), ast: true }));
        } else {
          out.edges.push(this.unresolved(source, res.name, res.reason, at(ref)));
        }
      }
      for (const m of r.doc.mentions) if (m.num !== r.num) out.edges.push(this.recordCitation(source, m.num, at(m)));
      // What the status line says of another record rides on every citation of it (ADR 160).
      const related = new Map(r.statusLine.relations.map((x) => [adrId(x.num), x.relation]));
      for (let k = first; k < out.edges.length; k++) {
        const relation = related.get(out.edges[k].target);
        if (relation !== undefined) out.edges[k] = { ...out.edges[k], context: relation };
      }
    }
    for (const [p, list] of notes) for (const n of list) this.emitNote(out, p, n, resolver);
    return out;
  }

  /**
   * A stamped note's node, its containment in its file, its `cites` edge to what it sits on, and
   * the `cites` edges of what its text names, by the rules a record's text follows (ADR 88).
   */
  private emitNote(out: RationaleOutput, file: string, n: SourceNote, resolver: (ref: MdPathRef, from: string) => Resolution): void {
    const id = rationaleId(file, n.area, n.stamp, n.index);
    const node: GraphNode = { id, kind: 'rationale', label: n.label, sourceFile: file, line: n.line, column: n.column, text: n.text };
    const header: Evidence = { file, line: n.line, column: n.column };
    out.nodes.push(node);
    out.edges.push(exactEdge(fileId(file), id, 'contains', 'SYNTAX', { evidence: header, ast: true }));
    out.edges.push(exactEdge(id, n.anchor, 'cites', 'SYNTAX', { evidence: header, ast: true }));
    const at = (x: { line: number; column: number }): Evidence => ({ file, line: x.line, column: x.column });
    for (const ref of n.refs) {
      const res = resolver(ref, file);
      if (!res) continue;
      if ('target' in res) out.edges.push(exactEdge(id, res.target, 'cites', 'DECISION_RECORD', { evidence: at(ref), ast: true }));
      else out.edges.push(this.unresolved(id, res.name, res.reason, at(ref)));
    }
    for (const m of n.mentions) out.edges.push(this.recordCitation(id, m.num, at(m)));
  }

  /** Resolves what a record names to a node, a declared hole, or nothing worth recording. */
  private pathResolver(resolverNodes: readonly GraphNode[], markdownPaths: readonly string[], anchors: Map<string, Map<string, string>>) {
    const ids = new Set(resolverNodes.map((n) => n.id));
    const sources = new Set(resolverNodes.filter((n) => n.kind === 'file').map((n) => n.sourceFile as string));
    const markdown = new Set(markdownPaths);
    const recordByPath = new Map([...this.records.values()].map((r) => [r.path, r.num]));
    const modules = new Set([...sources, ...markdownPaths].map(dirOf));
    const walked = new Set<string>();
    const prefix = this.ctx.root + '/';
    for (const [absDir, listing] of this.ctx.walk.entries) {
      const dir = absDir === this.ctx.root ? '' : absDir.slice(prefix.length);
      if (dir !== '') walked.add(dir);
      for (const f of listing.files) walked.add(dir === '' ? f : dir + '/' + f);
    }

    return (ref: MdPathRef, recordPath: string): Resolution => {
      const parsed = ref.kind === 'link' ? linkTarget(ref.target, recordPath) : codeSpanTarget(ref.target);
      if (!parsed) return undefined;
      const { p, frag } = parsed;
      const named = frag === undefined ? p : `${p}#${frag}`;
      const num = recordByPath.get(p);
      if (num !== undefined) return { target: adrId(num) };
      if (sources.has(p)) {
        if (frag === undefined || LINE_ANCHOR.test(frag)) return { target: fileId(p) };
        const sym = symbolId(p, frag);
        return ids.has(sym) ? { target: sym } : { reason: 'not-found', name: named };
      }
      if (markdown.has(p)) {
        if (frag === undefined) return { target: fileId(p) };
        const doc = anchors.get(p)?.get(frag.toLowerCase());
        return doc !== undefined ? { target: doc } : { reason: 'not-found', name: named };
      }
      if (frag === undefined && modules.has(p)) return { target: moduleId(p) };
      if (walked.has(p)) {
        // It is in the repository but the graph holds no node for it (an image, a JSON file, a
        // skipped source). A link says so; a code span naming such a file is just prose.
        return ref.kind === 'link' ? { reason: isSourceFileName(p) ? 'excluded' : 'not-source', name: named } : undefined;
      }
      if (ref.kind === 'link' || CLEARLY_A_FILE.test(p)) return { reason: 'not-found', name: named };
      return undefined;
    };
  }
}

/** Splits `path#fragment`. */
function splitFragment(s: string): { path: string; frag: string | undefined } {
  const hash = s.indexOf('#');
  return hash < 0 ? { path: s, frag: undefined } : { path: s.slice(0, hash), frag: s.slice(hash + 1) || undefined };
}

/** A normalised repository path, or undefined when it is empty or leaves the repository. */
function inRepository(p: string): string | undefined {
  const n = path.posix.normalize(p).replace(/\/+$/, '');
  if (n === '' || n === '.' || n === '..' || n.startsWith('../')) return undefined;
  return n;
}

/**
 * A link destination as a repository path: relative to the record's folder, or to the repository
 * root when it starts with `/`. URLs, same-page anchors and paths outside the repository are not
 * repository citations.
 */
export function linkTarget(dest: string, recordPath: string): { p: string; frag: string | undefined } | undefined {
  if (dest === '' || dest.startsWith('#') || dest.startsWith('//') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(dest)) return undefined;
  const { path: raw, frag } = splitFragment(dest.split('?')[0]);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // a stray `%` is kept as written
  }
  if (decoded === '') return undefined;
  const joined = decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(dirOf(recordPath), decoded);
  const p = inRepository(joined);
  return p === undefined ? undefined : { p, frag };
}

/**
 * A code span as a repository path: `src/a.ts`, `src/a.ts#Class.method`, `src/a.ts:12`, relative to
 * the repository root. Anything with spaces or other characters is code, not a path.
 */
export function codeSpanTarget(content: string): { p: string; frag: string | undefined } | undefined {
  const t = content.trim().replace(/:\d+(:\d+)?$/, '');
  const { path: raw, frag } = splitFragment(t);
  if (!PATH_CHARS.test(raw) || (frag !== undefined && /\s/.test(frag))) return undefined;
  const p = inRepository(raw.replace(/^\.?\//, ''));
  return p === undefined ? undefined : { p, frag };
}
