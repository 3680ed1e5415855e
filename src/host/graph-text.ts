// The words the editor's surfaces use for the graph: a lens title, the status bar's text and the
// sentence behind it, the rationale hover. No `vscode` here, so the unit tests check them in Node.

import type { WhyEntry, WhyNote, WhyResult } from '../graph';
import type { Checkout } from './checkout';
import type { FolderGraphState } from './graph-access';
import type { CallerCounts } from '../protocol/graph-worker';
import { markdownCode, markdownText } from './markdown-text';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The lens title: "1 caller", "3 callers", "3 callers · +2 candidates" (docs/adr/0061-what-a-callers-lens-says.md). */
export function callersTitle(c: CallerCounts, showCandidates: boolean): string {
  const proven = plural(c.callers, 'caller', 'callers');
  const counted = !showCandidates || c.candidates === 0 ? proven : `${proven} · +${plural(c.candidates, 'candidate', 'candidates')}`;
  // The dispatch tier, then what the graph cannot see, after the counts, which stay as they were (ADR 151, ADR 153).
  const referrers = c.referrers ? plural(c.referrers, 'referrer', 'referrers') : undefined;
  return [counted, throughTitle(c), referrers, c.unanalysed, c.unresolvedNamed].filter((x) => x !== undefined).join(' · ');
}

/** The lens tooltip's line about its dispatch tier, if it has one. */
export function throughTooltip(c: CallerCounts): string[] {
  if (!c.through) return [];
  const who = c.through.callers === 1 ? '1 caller reaches' : `${c.through.callers} callers reach`;
  return [
    `${who} it only through ${c.through.via.join(', ')}, which it implements or overrides: a call there may run this one, so they are counted apart from its own callers.`,
  ];
}

/** The lens tooltip's line about the symbols and files that use it without calling it, if any. */
export function referrersTooltip(c: CallerCounts): string[] {
  if (!c.referrers) return [];
  const who = c.referrers === 1 ? '1 symbol or file uses' : `${c.referrers} symbols and files use`;
  return [
    `${who} it without calling it (a value passed or stored, a type, a named import, a re-export, a subclass), proven by the type checker: renaming or removing it breaks them too. \`kg affected\` lists them.`,
  ];
}

/**
 * The dispatch tier of a lens (ADR 151), after the proven and guessed callers and never added to
 * them: "24 through Shape.area", or "30 through 2 members" when several members lead there.
 */
function throughTitle(c: CallerCounts): string | undefined {
  if (!c.through) return undefined;
  const { callers, via } = c.through;
  return `${callers} through ${via.length === 1 ? via[0] : `${via.length} members`}`;
}

/** Why a lens names unresolved calls of the symbol's name (ADR 153). */
export const UNRESOLVED_NAMED_TOOLTIP =
  'Unresolved calls carry this name: the type checker could not place them (an `any` receiver, a name with no declaration), and more symbols share the name than a guess may list (ADR 6). Any of them may reach this one; none is counted.';

/**
 * The lens over a declaration of an installed package (ADR 124): this repository's calls the checker
 * placed on it, and the package they name — "2 callers in this repository · @acme/greeter@1.2.0".
 */
export function packageCallersTitle(c: CallerCounts, pkg: string): string {
  return `${plural(c.callers, 'caller', 'callers')} in this repository · ${pkg}`;
}

/** The phase of a build that has written its graph, while the graph service loads it. */
export const BUILT_PHASE = 'built';

const compact = (n: number) => n.toLocaleString('en-US');

/** The status bar item's text for one state. */
/** Whether a folder's graph describes the files on disk now: built, loaded, nothing changed since, no build running. */
export function isFresh(s: FolderGraphState): boolean {
  return s.kind === 'ready' && s.callsLayer && !s.building && s.buildFailure === undefined && s.staleFiles.length === 0;
}

/** A commit as the status bar names it: 7 hex digits, as git abbreviates. */
const shortCommit = (commit: string) => commit.slice(0, 7);

/**
 * The checkout a fresh graph describes, in the status bar's few characters: "3f2a9c1", and
 * "3f2a9c1 +2" when 2 paths of the working tree differ from the commit (the graph includes them).
 */
function checkoutText(c: Checkout): string {
  return c.changed > 0 ? `${shortCommit(c.commit)} +${c.changed}` : shortCommit(c.commit);
}

/** The tooltip's sentence about the checkout a fresh graph describes. */
function checkoutSentence(c: Checkout): string {
  const on = c.branch !== undefined ? `, branch ${markdownCode(c.branch)}` : ', a detached HEAD';
  const changed =
    c.changed > 0
      ? ` with ${plural(c.changed, 'path', 'paths')} of the working tree changed from it (as on disk: the graph includes ${c.changed === 1 ? 'it' : 'them'})`
      : '';
  return `The graph is of commit ${markdownCode(shortCommit(c.commit))}${on}${changed}.`;
}

/** The status bar item's text for one state; `checkout`, when git named it, for a fresh graph only. */
export function statusText(s: FolderGraphState | undefined, checkout?: Checkout): { text: string; warning: boolean; error: boolean } {
  if (!s) return { text: '$(type-hierarchy) Knowledge Graph', warning: false, error: false };
  // The build is done and its graph is loading (ADR 90 keeps "building" until then): it says built,
  // never a count that looks unfinished after the "built" notification (issue 55, item 11).
  if (s.building?.phase === BUILT_PHASE) return { text: '$(sync~spin) KG: built, loading the graph', warning: false, error: false };
  if (s.building) {
    const count = s.building.total > 0 ? ` ${s.building.done}/${s.building.total}` : '';
    return { text: `$(sync~spin) KG: building${count}`, warning: false, error: false };
  }
  if (s.buildFailure !== undefined && s.kind !== 'unusable') return { text: '$(error) KG: build failed', warning: false, error: true };
  switch (s.kind) {
    case 'absent':
      return { text: '$(circle-slash) KG: no graph', warning: false, error: false };
    case 'loading':
      return { text: '$(loading~spin) KG: loading', warning: false, error: false };
    case 'unusable':
      return { text: '$(error) KG: unavailable', warning: false, error: true };
    case 'ready':
      if (!s.callsLayer) return { text: `$(warning) KG: no calls layer`, warning: true, error: false };
      if (s.staleFiles.length > 0)
        return {
          text: `$(warning) KG: stale: ${s.staleFiles.length} ${s.staleFiles.length === 1 ? 'file' : 'files'}`,
          warning: true,
          error: false,
        };
      return {
        text: `$(type-hierarchy) ${compact(s.nodes ?? 0)} nodes · ${compact(s.edges ?? 0)} edges${checkout && isFresh(s) ? ` · $(git-commit) ${checkoutText(checkout)}` : ''}`,
        warning: false,
        error: false,
      };
  }
}

/** The sentence for a failed build: why, and that the previous graph (if any) still answers (ADR-74). */
function buildFailureText(reason: string, graphKind: FolderGraphState['kind']): string {
  const after =
    graphKind === 'ready' || graphKind === 'loading'
      ? ' The previous graph still answers; save or build to try again.'
      : ' Save or build to try again.';
  return `The last build failed: ${reason.replace(/[.\s]+$/, '')}.${after}`;
}

/** One sentence about a folder's state (the status bar's tooltip and the quick pick's hint). */
export function describeState(s: FolderGraphState): string {
  if (!s.building && s.buildFailure !== undefined && s.kind !== 'unusable')
    return `${buildFailureText(s.buildFailure, s.kind)} ${s.kind === 'ready' ? previousGraph(s) : describeGraph(s)}`;
  return describeGraph(s);
}

/** The graph that still answers after a failed build: its size and what changed, with no advice to rebuild (it would fail again, ADR 91). */
function previousGraph(s: FolderGraphState): string {
  const size = `${(s.nodes ?? 0).toLocaleString('en-US')} nodes, ${(s.edges ?? 0).toLocaleString('en-US')} edges`;
  const n = s.staleFiles.length;
  return n > 0 ? `${size}; ${n} ${n === 1 ? 'file' : 'files'} changed since it was built.` : `${size}.`;
}

function describeGraph(s: FolderGraphState): string {
  if (s.building?.phase === BUILT_PHASE) return 'Built: loading the new graph; the previous graph answers meanwhile.';
  if (s.building)
    return `Building: ${s.building.phase} ${s.building.done} of ${s.building.total} files; the previous graph answers meanwhile.`;
  switch (s.kind) {
    case 'absent':
      return 'No graph yet: build one to see callers and god nodes.';
    case 'loading':
      return 'Loading the graph…';
    case 'unusable':
      return `The graph cannot be used: ${s.reason ?? 'unknown reason'}. Rebuild it.`;
    case 'ready': {
      const size = `${(s.nodes ?? 0).toLocaleString('en-US')} nodes, ${(s.edges ?? 0).toLocaleString('en-US')} edges`;
      if (!s.callsLayer) return `${size}; built without the calls layer, so callers are unknown. Rebuild to add them.`;
      if (s.staleFiles.length > 0)
        return `${size}; stale: ${s.staleFiles.length} ${s.staleFiles.length === 1 ? 'file' : 'files'} changed since the build. Rebuild to refresh.`;
      return `${size}; up to date.`;
    }
  }
}

/** How much of a note's text the hover shows (the rest is one click away, at the note). */
const HOVER_NOTE_CHARS = 400;

/** A location as a link target (a URI), or undefined where none can be made: then it is plain text. */
export type WhyLink = (file: string, line: number | undefined) => string | undefined;

function where(e: WhyEntry, link?: WhyLink): string {
  if (e.file === undefined) return '';
  const text = markdownText(e.line === undefined ? e.file : `${e.file}:${e.line}`);
  const target = link?.(e.file, e.line);
  // Parentheses and spaces would end the link's target early.
  return target === undefined
    ? ` — ${text}`
    : ` — [${text}](${target.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
}

function noteLine(n: WhyNote, link?: WhyLink): string {
  // The header is in the stamp already: show the words after it, on one line.
  const words = n.text
    .replace(/^WHY\([^)]*\):\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = words.length > HOVER_NOTE_CHARS ? words.slice(0, HOVER_NOTE_CHARS - 1) + '…' : words;
  return `- ${markdownCode(`${n.area}@${n.stamp}`)} ${markdownText(cut)}${n.sitsOn ? '' : ' *(names it)*'}${where(n, link)}`;
}

/**
 * The hover on a declaration: its stamped notes and the decision records around it, as markdown
 * with every graph-supplied text escaped (ADR 89). Undefined when nothing is written about it, or
 * when the graph could not answer: a hover never says "no reasons" for a graph that cannot know.
 * `link` makes each location a link that opens it. A record that both cites the declaration and
 * is named in its comments is listed once, under the records citing it.
 */
export function whyHoverMarkdown(answer: WhyResult, link?: WhyLink): string | undefined {
  if (!answer.available) return undefined;
  const named = new Set(answer.cited.map((r) => r.id));
  const citing = new Set(answer.records.map((r) => r.id));
  const sections: Array<[string, string[]]> = [
    ['Notes', answer.notes.map((n) => noteLine(n, link))],
    [
      'Decision records citing it',
      answer.records.map((r) => `- ${markdownText(r.label)}${named.has(r.id) ? ' *(its comments name it too)*' : ''}${where(r, link)}`),
    ],
    [
      'Decision records it follows',
      answer.cited.filter((r) => !citing.has(r.id)).map((r) => `- ${markdownText(r.label)}${where(r, link)}`),
    ],
    ['Notes on its file', answer.fileNotes.map((n) => noteLine(n, link))],
    ['Decision records citing its file', answer.fileRecords.map((r) => `- ${markdownText(r.label)}${where(r, link)}`)],
  ];
  const shown = sections.filter(([, lines]) => lines.length > 0);
  if (shown.length === 0) return undefined;
  return ['**Why** (Knowledge Graph)', ...shown.map(([title, lines]) => `*${title}*\n\n${lines.join('\n')}`)].join('\n\n');
}

/** Where a node is, as `file:line`, or undefined when it has no file. */
function placeOf(node: { sourceFile?: string; line?: number } | undefined): string | undefined {
  return node?.sourceFile ? `${node.sourceFile}${node.line ? `:${node.line}` : ''}` : undefined;
}

/** The God Nodes tree's tooltip on a ranked node, every graph text escaped (ADR 96). */
export function godNodeTooltip(id: string, node: { kind: string; sourceFile?: string; line?: number } | undefined, degree: number): string {
  const place = placeOf(node);
  return `${markdownCode(id)}\n\n${markdownText(`${node?.kind ?? 'node'} · degree ${degree} (edges in + out)`)}${place ? `\n\n${markdownText(place)}` : ''}`;
}

/** The God Nodes tree's tooltip on a neighbour, every graph text escaped (ADR 96). */
export function neighbourTooltip(
  id: string,
  confidence: string,
  evidence: { file: string; line: number; column: number } | undefined,
): string {
  const seen = evidence ? `\n\n${markdownText(`seen at ${evidence.file}:${evidence.line}:${evidence.column}`)}` : '';
  return `${markdownCode(id)}\n\nconfidence: **${markdownText(confidence)}**${seen}`;
}

/** The status bar's tooltip: the folder's state, and the first files changed since the build (ADR 96). */
export function statusTooltip(s: FolderGraphState, folderName: string | undefined, checkout?: Checkout): string {
  const lines = [`**Knowledge Graph${folderName !== undefined ? markdownText(` (${folderName})`) : ''}**`, markdownText(describeState(s))];
  if (checkout && isFresh(s)) lines.push(checkoutSentence(checkout));
  if (s.kind === 'ready' && s.staleFiles.length > 0) {
    const files = s.staleFiles.slice(0, 8).map((f) => `- ${markdownCode(f)}`);
    if (s.staleFiles.length > 8) files.push(`- … ${s.staleFiles.length - 8} more`);
    lines.push(`Changed since the build:\n\n${files.join('\n')}`);
  }
  lines.push('Click for actions.');
  return lines.join('\n\n');
}

/**
 * Whether the God Nodes view lists a node when it shows code only (ADR 98): modules, source files
 * and declarations do; headings, decision records and Markdown files do not.
 */
export function isCodeNode(node: { id: string; kind: string }): boolean {
  if (node.kind === 'rationale' || node.kind === 'doc-concept') return false;
  return !(node.kind === 'file' && /\.(md|markdown)$/i.test(node.id));
}

/** The God Nodes view's note when it left documentation out of its list. */
export function codeOnlyNote(leftOut: number, who = ''): string {
  return `${who}code only: ${plural(leftOut, 'documentation node', 'documentation nodes')} (headings, records, Markdown files) ranked among these ${leftOut === 1 ? 'is' : 'are'} left out; \`kg god-nodes\` ranks every node. Setting: knowledgeGraph.godNodes.codeOnly.`;
}
