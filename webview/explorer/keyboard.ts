// The explorer without a mouse: arrow keys move the selection to the nearest node in that
// direction, Enter opens (or unfolds a folded group), E expands, F fits, + and - zoom, Escape
// clears; `/` anywhere but a text field goes to the search box.

import type { Core } from 'cytoscape';

export interface KeyActions {
  selected(): string | null;
  /** The node to start from when nothing is selected. */
  start(): string | null;
  select(id: string | null): void;
  activate(id: string): void;
  expand(id: string): void;
  fit(): void;
  zoom(factor: number): void;
}

/** The nearest node from `from` in direction (dx, dy), favouring what is straight ahead. */
function nearestInDirection(cy: Core, from: string, dx: number, dy: number): string | null {
  const current = cy.getElementById(from);
  if (current.empty()) return null;
  const p = current.position();
  let best: string | null = null;
  let bestScore = Infinity;
  cy.nodes().forEach((n) => {
    if (n.isParent() || n.id() === from) return;
    const q = n.position();
    const along = (q.x - p.x) * dx + (q.y - p.y) * dy;
    if (along <= 0) return;
    const across = Math.abs((q.x - p.x) * dy - (q.y - p.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = n.id();
    }
  });
  return best;
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

export function bindKeyboard(cy: Core, canvas: HTMLElement, search: HTMLInputElement, act: KeyActions): void {
  canvas.addEventListener('keydown', (e) => {
    const sel = act.selected();
    const arrow = ARROWS[e.key];
    if (arrow) {
      if (!sel || cy.getElementById(sel).empty()) act.select(act.start());
      else {
        const next = nearestInDirection(cy, sel, arrow[0], arrow[1]);
        if (next) act.select(next);
      }
      e.preventDefault();
      return;
    }
    switch (e.key) {
      case 'Enter':
        if (sel) act.activate(sel);
        break;
      case 'e':
      case 'E':
        if (sel) act.expand(sel);
        break;
      case 'f':
      case 'F':
        act.fit();
        break;
      case '+':
      case '=':
        act.zoom(1.25);
        break;
      case '-':
        act.zoom(1 / 1.25);
        break;
      case 'Escape':
        act.select(null);
        break;
      default:
        return;
    }
    e.preventDefault();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === '/' && document.activeElement !== search && !(document.activeElement instanceof HTMLInputElement)) {
      e.preventDefault();
      search.focus();
    }
  });
}
