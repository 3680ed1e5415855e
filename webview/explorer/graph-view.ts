// The explorer's canvas: one Cytoscape instance, its layouts (fcose for neighbourhoods, dagre for
// paths and call chains — docs/adr/0065), fitting, and what makes a picture read on real code
// (docs/adr/0095-a-picture-that-reads.md): hubs moved to a ring outside the neighbourhood with
// their labels facing out, and labels placed greedily — most important first — so that none is
// drawn over the focus or over another label; a hidden label shows on hover and selection.

import cytoscape, { type Core, type LayoutOptions, type NodeCollection, type NodeSingular } from 'cytoscape';
import dagre from 'cytoscape-dagre';
import fcose from 'cytoscape-fcose';
import { readTheme, watchTheme, type Theme } from '../common/theme';
import type { Elements } from './elements';
import type { SavedState } from './state';
import { graphStyle } from './style';

cytoscape.use(fcose);
cytoscape.use(dagre);

/** Past this many drawn nodes, a picture is crowded: more room per node (docs/adr/0069). */
const CROWDED = 24;
/** The most neighbours of a hovered or selected node that are labelled with it. */
const NEAR_LABELS = 15;
/** The most labels a picture draws at once; the rest show on hover, selection or search. */
const MAX_LABELS = 150;

type Box = { x1: number; y1: number; x2: number; y2: number };

/** The two Cytoscape calls freshLabelBoxes needs: on every collection, not in its typings. */
interface BoundsCaches {
  recalculateRenderedStyle(useCache: boolean): void;
  dirtyBoundingBoxCache(): void;
}

/**
 * Label boxes measured at the font the nodes have now. A class that changes the font (the zoom
 * steps, bold on the path) leaves Cytoscape's measured label size as it was until its renderer's
 * next frame, and a bounding box read before then is computed from the old size and kept: the
 * label is then drawn through a texture of that narrower box, clipped at both ends ("nstants",
 * "v.#fetc") until a resize or a theme change measures again (issue 55), and labels were placed
 * by boxes smaller than their text. Measured again first, the boxes are the drawn text's.
 */
function freshLabelBoxes(nodes: NodeCollection): void {
  const caches = nodes as unknown as BoundsCaches;
  caches.recalculateRenderedStyle(false);
  caches.dirtyBoundingBoxCache();
}
const overlaps = (a: Box, b: Box): boolean => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;

export interface LayoutPlan {
  count: number;
  /** Saved positions to place the nodes at (every drawn node has one). */
  positions?: SavedState['positions'];
  /** Layered (dagre) rather than force (fcose). */
  layered: boolean;
  /** The focus and the hubs not expanded: the ring is drawn around the one, from the others. */
  focus: string | null;
  hubs: ReadonlySet<string>;
  /**
   * A path drawn alone, its node ids in order: laid out along the path, in a row where its labels
   * fit side by side in the canvas, else in a column with each label beside its node (docs/adr/0174).
   */
  path?: readonly string[];
}

/** Between two nodes of a path drawn in a column, in model units: a label of the largest zoom step (37 px) fits. */
const COLUMN_PITCH = 56;
/** The least room between two nodes of a path drawn in a row. */
const ROW_PITCH = 100;

export class GraphView {
  readonly cy: Core;
  theme: Theme;
  /** True until the user pans or zooms: while it holds, a resized panel fits the graph again. */
  autoFit = true;
  /** The label size step for the current zoom (0: as styled), and the focus labels are placed around. */
  private labelStep = 0;
  private focusId: string | null = null;

  constructor(private readonly container: HTMLElement) {
    this.theme = readTheme();
    this.cy = cytoscape({
      container,
      style: graphStyle(this.theme),
      elements: [],
      minZoom: 0.05,
      maxZoom: 4,
      wheelSensitivity: 0.3,
      boxSelectionEnabled: false,
      selectionType: 'single',
    });
    watchTheme(() => {
      this.theme = readTheme();
      this.cy.style(graphStyle(this.theme));
    });
    // A panel opened beside the editor is still settling its size while the first layout runs, and
    // the canvas also changes size without the window doing so: the canvas itself is watched.
    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    new ResizeObserver(() => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        this.cy.resize();
        if (this.autoFit && this.cy.nodes().length > 0) this.fitReadable();
      }, 100);
    }).observe(container);
    this.cy.on('dragpan scrollzoom', () => {
      this.autoFit = false;
    });
    // Zoomed out, labels would shrink below reading size: they grow a step instead, and are placed again.
    let zoomTimer: ReturnType<typeof setTimeout> | undefined;
    this.cy.on('zoom', () => {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(() => {
        if (this.scaleLabels()) this.placeLabels(this.focusId);
      }, 120);
    });
  }

  /**
   * Labels stay about 10.5–15 px on screen however far the picture is zoomed out to fit the panel:
   * past each step of zoom, a class sets a larger font in model units (style.ts). True when the
   * step changed (the labels must then be placed again: their boxes changed).
   */
  private scaleLabels(): boolean {
    const z = this.cy.zoom();
    // Each step starts where the smaller font would fall below about 10.5 px on screen (11, 15, 20, 27, 37 px fonts).
    const step = z >= 0.95 ? 0 : z >= 0.7 ? 1 : z >= 0.52 ? 2 : z >= 0.39 ? 3 : 4;
    if (step === this.labelStep) return false;
    this.labelStep = step;
    const nodes = this.cy.nodes();
    this.cy.batch(() => {
      nodes.removeClass('zs1 zs2 zs3 zs4');
      if (step > 0) nodes.addClass(`zs${step}`);
    });
    return true;
  }

  /** After the picture is fitted: labels sized for the zoom, then placed. */
  settle(focusId: string | null): void {
    this.focusId = focusId;
    this.scaleLabels();
    this.placeLabels(focusId);
  }

  /** Replaces what is drawn by these elements. */
  replace(built: Elements): void {
    const cy = this.cy;
    // The container may have changed size (side bar, window) since Cytoscape last measured it.
    cy.resize();
    cy.startBatch();
    cy.elements().remove();
    const large = (built.shown.length > CROWDED ? ' crowded' : '') + (built.shown.length > 300 ? ' large' : '');
    const zoomStep = this.labelStep > 0 ? ` zs${this.labelStep}` : '';
    cy.add(
      built.elements.map((e) => ({ group: e.group, data: e.data, classes: e.classes + large + (e.group === 'nodes' ? zoomStep : '') })),
    );
    cy.endBatch();
  }

  clear(): void {
    this.cy.elements().remove();
  }

  /** Runs the layout; `done` is called once the nodes are where they will be drawn. */
  layout(plan: LayoutPlan, done: () => void): void {
    const layout = this.cy.layout(this.layoutOptions(plan));
    layout.one('layoutstop', () => {
      if (plan.path) this.markColumn(plan.path);
      else if (!plan.positions && !plan.layered) this.ringHubs(plan.focus, plan.hubs);
      done();
    });
    layout.run();
  }

  private layoutOptions(plan: LayoutPlan): LayoutOptions {
    const { count } = plan;
    if (plan.positions) {
      const pos = plan.positions;
      return {
        name: 'preset',
        positions: (n: NodeSingular) => ({ x: pos[n.id()]?.[0] ?? 0, y: pos[n.id()]?.[1] ?? 0 }),
        fit: false,
        padding: 30,
      } as LayoutOptions;
    }
    if (plan.path && plan.path.length > 1) return { name: 'preset', positions: this.alongPath(plan.path), fit: false, padding: 30 };
    if (plan.layered) {
      return {
        name: 'dagre',
        rankDir: 'LR',
        nodeSep: 18,
        rankSep: 90,
        edgeSep: 8,
        fit: false,
        padding: 30,
        animate: false,
      } as LayoutOptions;
    }
    // fcose: spectral placement then force refinement (docs/adr/0065); past 600 nodes the draft
    // quality (spectral only) keeps 1,000 nodes under the 2 s bar.
    return {
      name: 'fcose',
      quality: count > 600 ? 'draft' : 'default',
      randomize: true,
      animate: false,
      fit: false,
      padding: 30,
      // A crowded neighbourhood gets more room per node, so that more labels fit apart.
      nodeRepulsion: () => (count > CROWDED ? 16000 : 9000),
      idealEdgeLength: () => (count > CROWDED ? 110 : 80),
      edgeElasticity: () => 0.45,
      nestingFactor: 0.1,
      numIter: 2500,
      // Past 150 nodes the force phase starts cooler, so it refines rather than re-plans.
      initialEnergyOnIncremental: count > 150 ? 0.12 : 0.3,
      packComponents: true,
      tile: true,
      // Nodes are a few fixed sizes: the spectral phase may skip measuring each one.
      uniformNodeDimensions: true,
    } as unknown as LayoutOptions;
  }

  /**
   * Where each node of a path drawn alone goes: in path order, whichever way its edges point (the
   * hops list and the arrows say that). In a row when the labels, alternately below and above
   * their nodes (placeLabels), fit side by side in the canvas at their own size; else in a column,
   * each label beside its node, where any number of them read.
   */
  private alongPath(path: readonly string[]): Record<string, { x: number; y: number }> {
    const cy = this.cy;
    freshLabelBoxes(cy.nodes());
    // The widest label at the size it has at zoom 1 (the fonts of the zoom steps are larger in model units).
    let widest = 0;
    for (const id of path) {
      const n = cy.getElementById(id);
      if (n.empty()) continue;
      const w = n.boundingBox({ includeNodes: false, includeLabels: true, includeOverlays: false }).w;
      const font = parseFloat(String(n.style('font-size'))) || 11;
      widest = Math.max(widest, (w * (n.hasClass('focus') ? 13 : 11)) / font);
    }
    const pitch = Math.max(ROW_PITCH, widest / 2 + 16);
    const row = (path.length - 1) * pitch + widest + 60 <= cy.width();
    const at: Record<string, { x: number; y: number }> = {};
    path.forEach((id, i) => {
      at[id] = row ? { x: i * pitch, y: 0 } : { x: 0, y: i * COLUMN_PITCH };
    });
    return at;
  }

  /** A path drawn in a column (its nodes one above the other) has its labels beside the nodes. */
  private markColumn(path: readonly string[]): void {
    const on = new Set(path);
    const nodes = this.cy.nodes().filter((n) => on.has(n.id()));
    const xs = new Set(nodes.map((n) => Math.round((n as NodeSingular).position().x)));
    const column = nodes.length > 1 && xs.size === 1;
    this.cy.batch(() => {
      nodes.removeClass('label-beside');
      if (column) nodes.addClass('label-beside');
    });
  }

  /**
   * Hubs (drawn, never walked through) pull a force layout into their middle and their long labels
   * cover the focus. They go to a ring just outside the rest, each at the angle it had from the
   * focus, spread so that neighbours on the ring keep apart, with the label on the outer side.
   */
  private ringHubs(focusId: string | null, hubs: ReadonlySet<string>): void {
    const cy = this.cy;
    const ring = cy.nodes().filter((n) => hubs.has(n.id()) && !n.isParent());
    if (ring.empty() || ring.length === cy.nodes().filter((n) => !n.isParent()).length) return;
    const rest = cy.nodes().filter((n) => !n.isParent() && !hubs.has(n.id()));
    const focus = focusId ? cy.getElementById(focusId) : cy.collection();
    const bb = rest.boundingBox({ includeLabels: false });
    const c = focus.nonempty() && !hubs.has(focus.id()) ? focus.position() : { x: (bb.x1 + bb.x2) / 2, y: (bb.y1 + bb.y2) / 2 };
    let radius = 0;
    rest.forEach((n) => {
      const p = n.position();
      radius = Math.max(radius, Math.hypot(p.x - c.x, p.y - c.y));
    });
    radius += 90;
    const placed = ring
      .map((el) => {
        const n = el as NodeSingular;
        return { n, a: Math.atan2(n.position().y - c.y, n.position().x - c.x) };
      })
      .sort((p, q) => p.a - q.a || (p.n.id() < q.n.id() ? -1 : 1));
    // The smallest angle between two hubs on the ring: their labels (about 14 px high) must not touch.
    const gap = Math.min((2 * Math.PI) / placed.length, Math.max(0.12, 26 / radius));
    for (let i = 1; i < placed.length; i++) if (placed[i].a - placed[i - 1].a < gap) placed[i].a = placed[i - 1].a + gap;
    cy.batch(() => {
      for (const { n, a } of placed) {
        n.position({ x: c.x + radius * Math.cos(a), y: c.y + radius * Math.sin(a) });
        n.removeClass('ring-left ring-right');
        n.addClass(Math.cos(a) < 0 ? 'ring-left' : 'ring-right');
      }
    });
  }

  /**
   * Labels, most important first — the focus, the path (in its order), the selection, search
   * matches, hubs, then by degree — each drawn only where it overlaps neither the focus (its shape
   * and its label) nor a label already placed. The rest are marked `label-off` and show on hover
   * or selection. A label of the path is never hidden (docs/adr/0174): where its place below its
   * node is taken, it goes above (`label-above`), and where both are taken, on the side it covers
   * less of.
   */
  placeLabels(focusId: string | null): void {
    const cy = this.cy;
    const nodes = cy.nodes().filter((n) => !n.isParent());
    cy.batch(() => nodes.removeClass('label-off label-above'));
    freshLabelBoxes(nodes);
    const rank = (n: NodeSingular): number =>
      n.id() === focusId ? 0 : n.hasClass('on-path') ? 1 : n.selected() ? 2 : n.hasClass('match') ? 3 : n.hasClass('hub') ? 4 : 5;
    const step = (n: NodeSingular): number => {
      const s: unknown = n.data('step');
      return typeof s === 'number' ? s : 0;
    };
    const ordered = nodes.sort((x, y) => {
      const a = x as NodeSingular;
      const b = y as NodeSingular;
      return rank(a) - rank(b) || step(a) - step(b) || b.degree(false) - a.degree(false) || (a.id() < b.id() ? -1 : 1);
    });
    const taken: Box[] = [];
    const focus = focusId ? cy.getElementById(focusId) : cy.collection();
    const only = { includeOverlays: false, includeUnderlays: false } as const;
    if (focus.nonempty()) taken.push(focus.boundingBox({ includeLabels: false, ...only }));
    /** How much of a box the labels placed so far cover. */
    const covered = (b: Box): number =>
      taken.reduce(
        (sum, t) =>
          sum + Math.max(0, Math.min(t.x2, b.x2) - Math.max(t.x1, b.x1)) * Math.max(0, Math.min(t.y2, b.y2) - Math.max(t.y1, b.y1)),
        0,
      );
    const off: NodeSingular[] = [];
    const above: NodeSingular[] = [];
    let shown = 0;
    ordered.forEach((el) => {
      const n = el as NodeSingular;
      const box = n.boundingBox({ includeNodes: false, includeLabels: true, ...only });
      const hasLabel = box.w > 0 && box.h > 0;
      if (!hasLabel) return;
      const keep = n.id() === focusId || (shown < MAX_LABELS && !taken.some((t) => overlaps(t, box)));
      if (keep) {
        taken.push(box);
        shown++;
      } else if (n.hasClass('on-path')) {
        // Above its node: the box below, mirrored through the node's centre (a label beside a hub stays there).
        const y = n.position().y;
        const up = n.style('text-valign') === 'bottom' ? { x1: box.x1, x2: box.x2, y1: 2 * y - box.y2, y2: 2 * y - box.y1 } : null;
        const goUp = up !== null && covered(up) < covered(box);
        if (goUp) above.push(n);
        taken.push(goUp ? up : box);
        shown++;
      } else off.push(n);
    });
    cy.batch(() => {
      for (const n of off) n.addClass('label-off');
      for (const n of above) n.addClass('label-above');
    });
    if (above.length > 0) freshLabelBoxes(cy.nodes('.label-above'));
  }

  /** Marks a node's neighbourhood (hovered or selected) so that it is labelled and stands out; null clears. */
  markNear(n: NodeSingular | null): void {
    const cy = this.cy;
    cy.batch(() => {
      cy.elements('.near').removeClass('near near-label');
      if (!n || n.empty()) return;
      const near = n.closedNeighborhood();
      near.addClass('near');
      // Its neighbours' labels too, while they are few enough to be read; else the node's own.
      (near.nodes().length <= NEAR_LABELS ? near.nodes() : n).addClass('near-label');
    });
  }

  /** Fits the graph, but never zooms a small graph in so far that its labels turn into posters. */
  fitReadable(): void {
    const cy = this.cy;
    cy.fit(undefined, 30);
    if (cy.zoom() > 1.4) {
      cy.zoom(1.4);
      cy.center();
    }
    this.autoFit = true;
  }

  /** Brings the path (drawn over a neighbourhood) into view, not closer than a readable zoom. */
  fitPath(): void {
    const cy = this.cy;
    const onPath = cy.nodes('.on-path');
    cy.fit(onPath, 80);
    if (cy.zoom() > 1.4) {
      const b = onPath.boundingBox();
      cy.zoom({ level: 1.4, position: { x: (b.x1 + b.x2) / 2, y: (b.y1 + b.y2) / 2 } });
    }
    this.autoFit = false;
  }

  zoomBy(factor: number): void {
    this.autoFit = false;
    const cy = this.cy;
    cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: this.container.clientWidth / 2, y: this.container.clientHeight / 2 } });
  }

  /** Where every drawn node is, rounded: saved so that a reload draws the same picture. */
  positions(): Record<string, [number, number]> {
    const positions: Record<string, [number, number]> = {};
    this.cy.nodes().forEach((n) => {
      if (n.isParent()) return;
      const p = n.position();
      positions[n.id()] = [Math.round(p.x), Math.round(p.y)];
    });
    return positions;
  }

  viewport(): NonNullable<SavedState['viewport']> {
    const pan = this.cy.pan();
    return { zoom: this.cy.zoom(), x: pan.x, y: pan.y, w: this.cy.width(), h: this.cy.height() };
  }

  /** Shows a saved viewport when it was seen in a canvas of about this size; true when it did. */
  restoreViewport(v: SavedState['viewport']): boolean {
    const cy = this.cy;
    const sameSize =
      v !== undefined && Math.abs(v.w - cy.width()) < 0.1 * cy.width() + 1 && Math.abs(v.h - cy.height()) < 0.1 * cy.height() + 1;
    if (!v || !sameSize) return false;
    cy.viewport({ zoom: v.zoom, pan: { x: v.x, y: v.y } });
    this.autoFit = false;
    return true;
  }

  png(): string {
    return this.cy.png({ output: 'base64uri', full: true, scale: 2, bg: this.theme.background, maxWidth: 8000, maxHeight: 8000 });
  }
}
