// The graph explorer as an app: what it shows (a neighbourhood, or the shortest path between two
// nodes, alone or over a neighbourhood), the requests it has out, and the one switch over the
// host's messages. The page (page.ts), the canvas (graph-view.ts), the side column (panes.ts) and
// the keys (keyboard.ts) are its parts; what survives a reload and how a picture comes back is
// state.ts, pure and tested in Node. It speaks to the host only through the shared protocol and
// names nodes by id; the host answers with what the graph says.

import type { NodeSingular } from 'cytoscape';
import { assertNever, type Banner, type EdgeView, type HostMessage, type NodeView, type ShowRequest } from '../../src/protocol/messages';
import { renderBanner } from '../common/banner';
import { clear, h } from '../common/dom';
import { nameOfId, type Endpoint } from '../common/endpoint-field';
import type { Host } from '../common/host';
import { hopsPhrase } from '../common/path-text';
import { addAll, buildElements, edgeKeyOf, emptyDrawn, type Drawn, type Grouping } from './elements';
import { GraphView } from './graph-view';
import { bindKeyboard } from './keyboard';
import { buildPage, type Page } from './page';
import { renderDetails, renderDetailsPlaceholder, renderHops, renderHubs, say, type Actions } from './panes';
import { rankShown } from './search';
import {
  isRestoring,
  readSaved,
  restoreAbandoned,
  restoreOnAnswer,
  restoreOnStatus,
  type LayoutName,
  type Restore,
  type RestoreStep,
  type SavedState,
} from './state';

type Pending = 'neighbors' | 'expand' | 'path' | 'details' | 'suggest-from' | 'suggest-to';

const NOTHING_SHOWN = 'Nothing shown yet. Run “Explore Neighbors” on a symbol, or switch to Path.';

export class Explorer {
  private readonly page: Page;
  private readonly view: GraphView;
  private readonly state: SavedState;
  private readonly hadSaved: boolean;
  private banner: Banner | null = null;
  private nodeCap = 500;
  private hostBudget = 40;
  /** The signature of the graph that answers now (from the last status). */
  private signature: string | undefined;
  private firstStatus = true;
  private drawn: Drawn = emptyDrawn();
  private mode: 'neighbors' | 'path';
  private nextRequest = 1;
  private readonly pending = new Map<number, Pending>();
  private restore: Restore = { phase: 'waiting' };
  /** Why the layout of a restored picture was dropped, said once it is drawn. */
  private freshReason: null | 'rebuilt' | 'unknown' = null;
  private pathHops: { nodes: NodeView[]; edges: EdgeView[] } | null = null;
  private matches: string[] = [];
  private matchIndex = -1;
  private readonly act: Actions;

  constructor(
    private readonly host: Host<SavedState>,
    doc: Document,
  ) {
    const read = readSaved(host.getState());
    this.state = read.state;
    this.hadSaved = read.saved;
    this.mode = this.state.request?.mode ?? 'neighbors';
    this.page = buildPage(doc, {
      suggest: (end, text) => host.post({ type: 'suggest', requestId: this.request(end === 'from' ? 'suggest-from' : 'suggest-to'), text }),
      findPath: () => this.findPath(),
    });
    this.view = new GraphView(this.page.cyEl);
    this.act = {
      select: (n) =>
        this.view.cy.getElementById(n.id).nonempty() ? this.selectNode(n.id, true) : this.show({ mode: 'neighbors', id: n.id }),
      selectDrawn: (id) => this.selectNode(id, true),
      open: (id) => host.post({ type: 'open', id }),
      explore: (id) => this.show({ mode: 'neighbors', id }),
      expand: (id) => this.expand(id),
      pathEnd: (end, n) => {
        this.field(end).set({ id: n.id, label: n.label });
        this.setMode('path');
        this.field(end === 'from' ? 'to' : 'from').input.focus();
      },
    };
    const p = this.page;
    p.search.value = this.state.search;
    p.budgetInput.value = String(this.state.budget);
    p.groupSelect.value = this.state.grouping;
    p.layoutSelect.value = this.state.layout;
    p.from.set(this.state.from);
    p.to.set(this.state.to);
    this.setMode(this.mode);
    this.bindEvents();
    renderDetailsPlaceholder(p.details);
    p.empty.textContent = NOTHING_SHOWN;
  }

  start(): void {
    this.host.onMessage((m) => this.handle(m));
    this.host.post({ type: 'ready' });
  }

  // ── State ──────────────────────────────────────────────────────────────────────────────────────
  private save(): void {
    // While a picture is being brought back, what is drawn is not yet what was saved: keep the saved.
    if (this.restore.phase === 'idle') {
      if (this.view.cy.nodes().length > 0) {
        this.state.positions = this.view.positions();
        this.state.viewport = this.view.viewport();
      }
      this.state.expanded = [...this.drawn.expanded];
      this.state.unfolded = [...this.drawn.unfolded];
    }
    this.state.from = this.page.from.endpoint;
    this.state.to = this.page.to.endpoint;
    this.host.setState(this.state);
  }

  private field(end: 'from' | 'to') {
    return end === 'from' ? this.page.from : this.page.to;
  }

  private setMode(m: 'neighbors' | 'path'): void {
    const p = this.page;
    this.mode = m;
    p.modeNeighbors.checked = m === 'neighbors';
    p.modePath.checked = m === 'path';
    p.neighborsControls.hidden = m !== 'neighbors';
    p.pathControls.hidden = m !== 'path';
    p.hopsEl.hidden = m !== 'path';
  }

  private say(text: string | null, kind: 'info' | 'warning' | 'answer' = 'info', extra?: Node): void {
    say(this.page.notice, text, kind, extra);
  }

  // ── Requests ───────────────────────────────────────────────────────────────────────────────────
  private request(kind: Pending): number {
    const id = this.nextRequest++;
    // One answer of each kind is awaited at a time: a newer request supersedes an older one.
    for (const [k, v] of this.pending) if (v === kind) this.pending.delete(k);
    this.pending.set(id, kind);
    return id;
  }

  private budget(): number {
    const b = Number(this.page.budgetInput.value);
    return Number.isInteger(b) && b >= 1 && b <= 5000 ? b : this.hostBudget;
  }

  private ask(req: ShowRequest): void {
    if (req.mode === 'neighbors')
      this.host.post({ type: 'neighbors', requestId: this.request('neighbors'), id: req.id, budget: this.budget(), expand: false });
    else this.host.post({ type: 'path', requestId: this.request('path'), from: req.from, to: req.to });
  }

  private show(req: ShowRequest, keepExpansions = false): void {
    const s = this.state;
    s.request = req;
    if (!keepExpansions) {
      s.expanded = [];
      s.unfolded = [];
      s.positions = undefined;
      s.viewport = undefined;
    }
    if (req.mode === 'neighbors') s.base = undefined;
    this.restore = { phase: 'idle' };
    this.setMode(req.mode);
    if (this.banner?.blocking) {
      // Asked again once the graph can answer.
      this.drawEmpty();
      this.restore = { phase: 'waiting' };
      this.save();
      return;
    }
    this.ask(req);
    this.save();
  }

  private expand(id: string): void {
    if (this.drawn.expanded.includes(id)) return;
    this.host.post({ type: 'neighbors', requestId: this.request('expand'), id, budget: this.budget(), expand: true });
  }

  private findPath(): void {
    const from = this.page.from.query;
    const to = this.page.to.query;
    if (!from || !to) return this.say('Give both ends of the path: start typing a name and pick a suggestion.', 'info');
    // A path asked for over a drawn neighbourhood is highlighted on it, not drawn alone.
    const s = this.state;
    const base = s.request?.mode === 'neighbors' && this.drawn.nodes.size > 0 ? s.request : s.base;
    if (base) {
      this.save();
      s.base = base;
    }
    this.show({ mode: 'path', from, to }, base !== undefined);
  }

  /** Back to Neighbors: the neighbourhood a path was drawn over, or the one around the path's start. */
  private toNeighbors(): void {
    const s = this.state;
    if (s.base) {
      // Drop the highlight, keep the picture.
      s.request = s.base;
      s.base = undefined;
      this.drawn.path = [];
      this.drawn.pathEdges = new Set();
      this.pathHops = null;
      clear(this.page.hopsEl);
      this.say(null);
      this.setMode('neighbors');
      this.focusLabel();
      this.redraw(true);
    } else if (s.request?.mode === 'path') {
      // A path drawn alone says nothing about a neighbourhood: draw one, around the selection or the path's start.
      const sel = s.selected && this.drawn.nodes.has(s.selected) ? s.selected : null;
      this.show({ mode: 'neighbors', id: sel ?? this.drawn.path[0] ?? s.request.from });
    } else this.setMode('neighbors');
  }

  private selectNode(id: string | null, center = false): void {
    const cy = this.view.cy;
    cy.elements().unselect();
    this.state.selected = id;
    this.view.markNear(id ? cy.getElementById(id) : null);
    if (!id) {
      renderDetailsPlaceholder(this.page.details);
      this.save();
      return;
    }
    const n = cy.getElementById(id);
    if (n.nonempty()) {
      n.select();
      if (center) cy.animate({ center: { eles: n }, duration: 150 });
      this.page.announcer.textContent = `${String(n.data('label'))}, ${String(n.data('kind'))}`;
    }
    if (!id.startsWith('agg:') && !id.startsWith('grp:')) this.host.post({ type: 'details', requestId: this.request('details'), id });
    this.save();
  }

  // ── Drawing ────────────────────────────────────────────────────────────────────────────────────
  /** Nothing drawn, and nothing said of an answer: a result from before a blocking banner goes with it. */
  private drawEmpty(): void {
    const p = this.page;
    this.view.clear();
    this.drawn = emptyDrawn();
    this.pathHops = null;
    p.empty.hidden = false;
    p.empty.textContent = this.banner?.blocking ? 'The graph cannot answer yet: see the banner above.' : NOTHING_SHOWN;
    clear(p.hubsEl);
    clear(p.hopsEl);
    p.focusLabel.textContent = '';
    p.searchCount.textContent = '';
    this.say(null);
    renderDetailsPlaceholder(p.details);
    this.host.post({ type: 'drawn', mode: 'empty', nodes: [], aggregated: 0, title: '' });
  }

  private focusLabel(): void {
    const f = this.drawn.focus;
    this.page.focusLabel.textContent = f && this.state.request?.mode === 'neighbors' ? `around ${this.labelOf(f)} ` : '';
  }

  private redraw(usePositions = false, restoring = false): void {
    // Marks for the bench (bench/webview.ts): elements, layout and paint, measured apart.
    performance.mark('kg-redraw');
    const s = this.state;
    const built = buildElements(this.drawn, s.grouping, this.nodeCap);
    this.view.replace(built);
    this.page.empty.hidden = built.elements.length > 0;
    const canPreset = usePositions && s.positions !== undefined && built.shown.every((id) => s.positions?.[id] !== undefined);
    performance.measure('kg-elements', 'kg-redraw');
    performance.mark('kg-layout');
    const plan = {
      count: built.shown.length,
      positions: canPreset ? s.positions : undefined,
      layered: s.layout === 'layered' || (this.mode === 'path' && !s.base),
      focus: this.drawn.focus,
      hubs: this.drawn.hubs,
      // A path drawn alone is laid out along it (docs/adr/0174); grouped in boxes, layered as the rest.
      ...(this.mode === 'path' && !s.base && s.grouping === 'none' && this.drawn.path.length > 1 ? { path: this.drawn.path } : {}),
    };
    this.view.layout(plan, () => {
      performance.measure('kg-layout', 'kg-layout');
      performance.mark('kg-paint');
      if (!(canPreset && this.view.restoreViewport(s.viewport))) this.view.fitReadable();
      // A path drawn over a neighbourhood: bring the whole path into view.
      if (!restoring && this.drawn.path.length > 0 && this.drawn.nodes.size > this.drawn.path.length) this.view.fitPath();
      this.applySearch(false);
      if (s.selected && this.view.cy.getElementById(s.selected).nonempty()) this.view.cy.getElementById(s.selected).select();
      this.view.settle(this.drawn.focus);
      renderHubs(this.page.hubsEl, this.drawn, this.act);
      this.focusLabel();
      if (built.aggregation) {
        const a = built.aggregation;
        this.say(
          `${this.drawn.nodes.size} nodes are more than the node cap of ${a.cap} (setting knowledgeGraph.explorer.nodeCap): the ${built.shown.length} nearest are drawn, ${a.hidden} are folded into ${a.groups} ${a.by === 'file' ? 'files' : 'modules'}. Double-click a folded group to open it.`,
          'warning',
        );
      } else if (this.freshReason && this.page.notice.hidden) {
        this.say(
          this.freshReason === 'rebuilt'
            ? 'The graph was rebuilt since this picture was drawn: it is drawn again from the current graph.'
            : 'Drawn again from the current graph (the picture saved before could not be told to belong to it).',
          'info',
        );
      }
      this.freshReason = null;
      s.signature = this.signature;
      // "Drawn" means painted: wait for the frame that shows the laid-out graph.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          performance.measure('kg-paint', 'kg-paint');
          this.save();
          this.host.post({
            type: 'drawn',
            mode: this.mode,
            nodes: built.shown,
            aggregated: built.aggregation?.hidden ?? 0,
            title: this.tabTitle(),
          });
        }),
      );
    });
  }

  /** What the panel's tab says: the focus, or the two ends of the path. */
  private tabTitle(): string {
    const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 39)}…` : s);
    const hops = this.pathHops;
    if (this.mode === 'path' && hops && hops.nodes.length > 0)
      return cut(`${hops.nodes[0].label} → ${hops.nodes[hops.nodes.length - 1].label}`);
    return this.drawn.focus ? cut(this.labelOf(this.drawn.focus)) : '';
  }

  private labelOf(id: string): string {
    return this.drawn.nodes.get(id)?.label ?? nameOfId(id);
  }

  // ── Search ─────────────────────────────────────────────────────────────────────────────────────
  private applySearch(jump: boolean): void {
    const p = this.page;
    const cy = this.view.cy;
    this.state.search = p.search.value;
    cy.elements().removeClass('match faded');
    const nodes = cy
      .nodes()
      .filter((n) => !n.isParent())
      .map((n) => ({
        id: n.id(),
        label: String(n.data('name') ?? n.data('label')),
        place: String(n.data('place') ?? ''),
        degree: (n as NodeSingular).degree(false),
      }));
    this.matches = rankShown(p.search.value, nodes);
    if (!p.search.value.trim()) {
      p.searchCount.textContent = '';
      return;
    }
    cy.elements().addClass('faded');
    for (const id of this.matches) cy.getElementById(id).removeClass('faded').addClass('match');
    p.searchCount.textContent =
      this.matches.length === 0 ? 'no match' : `${this.matches.length} match${this.matches.length === 1 ? '' : 'es'}`;
    if (jump && this.matches.length) {
      this.matchIndex = (this.matchIndex + 1) % this.matches.length;
      this.selectNode(this.matches[this.matchIndex], true);
      p.searchCount.textContent = `${this.matchIndex + 1} of ${this.matches.length}`;
    }
  }

  // ── Events ─────────────────────────────────────────────────────────────────────────────────────
  private bindEvents(): void {
    const p = this.page;
    const cy = this.view.cy;
    p.search.addEventListener('input', () => {
      this.matchIndex = -1;
      this.applySearch(false);
      this.save();
    });
    p.search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.applySearch(true);
      if (e.key === 'Escape') {
        p.search.value = '';
        this.applySearch(false);
        p.cyEl.focus();
      }
    });
    p.modeNeighbors.addEventListener('change', () => this.toNeighbors());
    p.modePath.addEventListener('change', () => this.setMode('path'));
    p.budgetInput.addEventListener('change', () => {
      this.state.budget = this.budget();
      if (this.state.request?.mode === 'neighbors') this.show(this.state.request);
    });
    p.findButton.addEventListener('click', () => this.findPath());
    p.groupSelect.addEventListener('change', () => {
      this.state.grouping = p.groupSelect.value as Grouping;
      this.redraw();
    });
    p.layoutSelect.addEventListener('change', () => {
      this.state.layout = p.layoutSelect.value as LayoutName;
      this.redraw();
    });
    p.fitButton.addEventListener('click', () => this.view.fitReadable());
    p.zoomIn.addEventListener('click', () => this.view.zoomBy(1.25));
    p.zoomOut.addEventListener('click', () => this.view.zoomBy(1 / 1.25));
    p.exportButton.addEventListener('click', () => {
      if (cy.nodes().length === 0) return this.say('Nothing to export yet.', 'info');
      this.host.post({ type: 'savePng', dataUrl: this.view.png() });
    });
    cy.on('tap', 'node', (e) => {
      const n = e.target as NodeSingular;
      if (!n.isParent()) this.selectNode(n.id());
    });
    cy.on('tap', (e) => {
      if (e.target === cy) this.selectNode(null);
    });
    // An edge says what it is when clicked: which relation, proven or guessed, folded or not.
    cy.on('tap', 'edge', (e) => {
      const edge = e.target as cytoscape.EdgeSingular;
      const conf = String(edge.data('confidence'));
      const what = conf === 'EXACT' ? 'proven by the checker' : conf === 'CANDIDATE' ? 'a name-match guess' : 'unresolved';
      const label = edge.data('label') ? ` — ${String(edge.data('label'))}` : '';
      this.say(
        `${this.labelOf(String(edge.data('source')))} ${String(edge.data('relation'))} ${this.labelOf(String(edge.data('target')))} · ${conf} (${what})${label}`,
        'info',
      );
    });
    // The canvas has no DOM per node: the hovered node's name and place become the canvas's tooltip.
    cy.on('mouseover', 'node', (e) => {
      const n = e.target as NodeSingular;
      const v = this.drawn.nodes.get(n.id());
      p.cyEl.title = v
        ? `${v.label} — ${v.kind}${v.file ? ` · ${v.file}${v.line ? `:${v.line}` : ''}` : ''}`
        : String(n.data('path') ?? n.data('label') ?? '');
      this.view.markNear(n);
    });
    cy.on('mouseout', 'node', () => {
      p.cyEl.title = '';
      const selected = cy.nodes(':selected');
      this.view.markNear(selected.nonempty() ? selected.first() : null);
    });
    cy.on('dbltap', 'node', (e) => {
      const n = e.target as NodeSingular;
      if (n.hasClass('aggregate')) {
        this.drawn.unfolded.add(n.id());
        this.redraw();
      } else if (!n.isParent()) this.host.post({ type: 'open', id: n.id() });
    });
    cy.on('dragfree', 'node', () => this.save());
    cy.on('viewport', () => {
      if (this.restore.phase !== 'idle') return;
      this.state.viewport = this.view.viewport();
      this.host.setState(this.state);
    });
    bindKeyboard(cy, p.cyEl, p.search, {
      selected: () => this.state.selected,
      start: () => {
        const f = this.drawn.focus;
        if (f && cy.getElementById(f).nonempty()) return f;
        const first = cy.nodes().filter((n) => !n.isParent())[0];
        return first ? first.id() : null;
      },
      select: (id) => this.selectNode(id, true),
      activate: (id) => {
        if (id.startsWith('agg:')) {
          this.drawn.unfolded.add(id);
          this.redraw();
        } else this.host.post({ type: 'open', id });
      },
      expand: (id) => this.expand(id),
      fit: () => this.view.fitReadable(),
      zoom: (f) => this.view.zoomBy(f),
    });
  }

  // ── Restoring ──────────────────────────────────────────────────────────────────────────────────
  private run(step: RestoreStep): void {
    switch (step.do) {
      case 'empty':
        this.drawEmpty();
        return;
      case 'wait':
        return;
      case 'ask': {
        this.freshReason = step.fresh;
        this.drawn = emptyDrawn();
        this.drawn.unfolded = new Set(this.state.unfolded);
        this.setMode(this.state.request?.mode ?? step.request.mode);
        this.ask(step.request);
        return;
      }
      case 'expand':
        this.host.post({ type: 'neighbors', requestId: this.request('expand'), id: step.id, budget: this.budget(), expand: true });
        return;
      case 'path':
        this.host.post({ type: 'path', requestId: this.request('path'), from: step.request.from, to: step.request.to });
        return;
      case 'draw':
        this.redraw(step.positions, true);
        return;
      default:
        assertNever(step);
    }
  }

  /** A neighbourhood or path answer arrived: the next restore step, or the picture drawn. */
  private answered(usePositions: boolean): void {
    if (!isRestoring(this.restore)) return this.redraw(usePositions);
    const next = restoreOnAnswer(this.restore);
    this.restore = next.restore;
    this.run(next.step);
  }

  // ── Messages from the host ─────────────────────────────────────────────────────────────────────
  private handle(m: HostMessage): void {
    switch (m.type) {
      case 'status':
        return this.onStatus(m);
      case 'show':
        this.state.base = undefined;
        if (m.request.mode === 'path') {
          // Ids until the answer brings their labels.
          this.page.from.set({ id: m.request.from, label: nameOfId(m.request.from) });
          this.page.to.set({ id: m.request.to, label: nameOfId(m.request.to) });
        }
        this.show(m.request);
        return;
      case 'neighborhood':
        return this.onNeighborhood(m);
      case 'path':
        return this.onPath(m);
      case 'details': {
        if (this.pending.get(m.requestId) !== 'details') return;
        this.pending.delete(m.requestId);
        renderDetails(this.page.details, m.details, this.drawn, this.act);
        return;
      }
      case 'unavailable':
        return this.onUnavailable(m);
      case 'suggestions': {
        const kind = this.pending.get(m.requestId);
        this.pending.delete(m.requestId);
        if (kind === 'suggest-from') this.page.from.offer(m.items);
        else if (kind === 'suggest-to') this.page.to.offer(m.items);
        return;
      }
      case 'defaultEndpoint':
        if (m.node && !this.page.from.query) this.page.from.set({ id: m.node.id, label: m.node.label });
        return;
      case 'saved':
        this.say(m.message, 'info');
        return;
      default:
        assertNever(m);
    }
  }

  private onStatus(m: Extract<HostMessage, { type: 'status' }>): void {
    const wasBlocking = this.banner?.blocking === true;
    const changed = this.signature !== undefined && m.signature !== undefined && m.signature !== this.signature;
    this.banner = m.banner;
    this.nodeCap = m.nodeCap;
    this.hostBudget = m.budget;
    this.signature = m.signature;
    if (m.folder) this.state.folder = m.folder;
    renderBanner(this.page.bannerEl, this.banner, this.host.post);
    this.page.summaryEl.textContent = m.summary;
    if (this.firstStatus) {
      this.firstStatus = false;
      if (!this.hadSaved) this.page.budgetInput.value = String(m.budget);
    }
    const blocking = this.banner?.blocking === true;
    if (blocking) {
      // Nothing from the graph that was may stay on screen; what was shown is asked again once it can answer.
      if (this.state.request) this.restore = { phase: 'waiting' };
      this.drawEmpty();
      return;
    }
    // A reload, a graph that can answer again, or another graph under the picture: ask again.
    if (this.restore.phase === 'waiting' || wasBlocking || changed) {
      this.restore = { phase: 'waiting' };
      const next = restoreOnStatus(this.restore, this.state, { blocking, signature: m.signature });
      this.restore = next.restore;
      this.run(next.step);
    }
  }

  private onNeighborhood(m: Extract<HostMessage, { type: 'neighborhood' }>): void {
    const kind = this.pending.get(m.requestId);
    if (kind !== 'neighbors' && kind !== 'expand') return;
    this.pending.delete(m.requestId);
    const restoring = isRestoring(this.restore);
    if (!m.expand) {
      const unfolded = this.drawn.unfolded;
      this.drawn = emptyDrawn();
      if (restoring) this.drawn.unfolded = unfolded;
      this.drawn.focus = m.focus.id;
      this.pathHops = null;
      clear(this.page.hopsEl);
      this.say(null);
    } else {
      this.drawn.hubs.delete(m.focus.id);
      this.drawn.expanded.push(m.focus.id);
    }
    this.drawn.hubThreshold = m.hubThreshold;
    addAll(this.drawn, [m.focus, ...m.nodes], m.edges);
    for (const hub of m.excludedHubs) if (!this.drawn.expanded.includes(hub) && hub !== this.drawn.focus) this.drawn.hubs.add(hub);
    if (!m.expand && m.nodes.length <= 1 && m.edges.length === 0) {
      this.say(
        this.banner && !this.banner.blocking
          ? `No neighbours in the graph as built — but ${this.banner.reason}`
          : `${m.focus.label} has no neighbours in the graph.`,
        'answer',
      );
    }
    this.answered(false);
  }

  private onPath(m: Extract<HostMessage, { type: 'path' }>): void {
    if (this.pending.get(m.requestId) !== 'path') return;
    this.pending.delete(m.requestId);
    const overlay = this.state.base !== undefined && this.drawn.nodes.size > 0;
    if (overlay) {
      // Keep the neighbourhood and where its nodes are; the path is added and highlighted.
      if (!isRestoring(this.restore)) this.save();
      this.drawn.path = [];
      this.drawn.pathEdges = new Set();
    } else this.drawn = emptyDrawn();
    this.pathHops = { nodes: m.nodes, edges: m.edges };
    this.page.from.set({ id: m.from.id, label: m.from.label });
    this.page.to.set({ id: m.to.id, label: m.to.label });
    const caveat = this.banner && !this.banner.blocking ? this.banner.reason : null;
    if (m.nodes.length === 0) {
      addAll(this.drawn, m.from.id === m.to.id ? [m.from] : [m.from, m.to], []);
      this.say(
        `Not connected: no chain of relations links ${m.from.label} and ${m.to.label} in the graph.${caveat ? ` Cannot tell for sure: ${caveat}` : ''}`,
        'answer',
      );
    } else {
      addAll(this.drawn, m.nodes, m.edges);
      this.drawn.path = m.nodes.map((n) => n.id);
      this.drawn.pathEdges = new Set(m.edges.map(edgeKeyOf));
      this.say(`Shortest path from ${m.from.label} to ${m.to.label}: ${hopsPhrase(m.edges)}.${caveat ? ` (${caveat})` : ''}`, 'answer');
    }
    if (!overlay) this.drawn.focus = m.from.id;
    renderHops(this.page.hopsEl, this.pathHops, this.act);
    if (isRestoring(this.restore)) this.answered(true);
    else this.redraw(overlay);
  }

  private onUnavailable(m: Extract<HostMessage, { type: 'unavailable' }>): void {
    const kind = this.pending.get(m.requestId);
    if (!kind) return;
    this.pending.delete(m.requestId);
    if (kind === 'details') {
      renderDetailsPlaceholder(this.page.details, m.reason);
      return;
    }
    if (kind === 'suggest-from' || kind === 'suggest-to') return;
    if (isRestoring(this.restore)) {
      // The restore stops at what the graph no longer holds; what came back so far is drawn.
      this.restore = restoreAbandoned();
      if (this.drawn.nodes.size > 0) this.redraw(false);
    }
    const extra = h('span', { class: 'suggestions' });
    for (const s of m.suggestions.slice(0, 8)) {
      const b = h('button', { type: 'button', class: 'link', title: `${s.label} — ${s.kind}${s.file ? ` · ${s.file}` : ''}` }, s.label);
      b.addEventListener('click', () => {
        if (kind !== 'path') return this.show({ mode: 'neighbors', id: s.id });
        // The suggestion replaces the end the graph does not hold (the host says which).
        const end: Endpoint = { id: s.id, label: s.label };
        this.field(m.unknownEnd ?? 'from').set(end);
        this.findPath();
      });
      extra.append(' ', b);
    }
    this.say(`Unavailable: ${m.reason}${m.suggestions.length ? ' — did you mean:' : ''}`, 'warning', extra);
  }
}
