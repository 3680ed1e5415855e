// A path end as a person fills it in (the path finder's From and To, the explorer's path fields):
// a text field that shows a node's label, with its id kept underneath, and a list of suggestions
// (the host's ranked search, docs/adr/0093) that shows label, kind and place — never an id, so
// never an escaped one (`Ky.%23fetch`). Typing into a field that holds a node starts a new search
// (the text is selected on focus, so typing replaces it): typed text is never appended to an id.
// The ARIA combobox pattern: the input owns a listbox; arrows move, Enter or a click picks,
// Escape closes.

import type { NodeView } from '../../src/protocol/messages';
import { clear, h } from './dom';

/** A node picked (or offered by the host): what the field shows and what is asked about. */
export interface Endpoint {
  id: string;
  label: string;
}

/** Where a suggestion lives, as a person reads it: `path:line`, a module's directory. */
export function placeOfView(n: NodeView): string {
  if (n.file) return `${n.file}${n.line ? `:${n.line}` : ''}`;
  if (n.kind === 'module') return `${decodeEscapes(n.id.replace(/^mod:/, ''))}/`;
  return '';
}

/** An id's readable name while its label is not known yet: the part after `#` (or the path), unescaped. */
export function nameOfId(id: string): string {
  const hash = id.indexOf('#');
  const rest = hash >= 0 ? id.slice(hash + 1) : id.slice(id.indexOf(':') + 1);
  return decodeEscapes(rest.replace(/~\d+$/, '')) || id;
}

function decodeEscapes(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A name as text with a line-break opportunity after each `.`, `/` and `#`, where a long name breaks best. */
function breakable(name: string): Array<string | HTMLElement> {
  return name.split(/(?<=[./#])/).flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part]));
}

export interface EndpointFieldOptions {
  id: string;
  placeholder: string;
  label: string;
  /** Asked for suggestions once the text is two characters or more. */
  suggest(text: string): void;
  /** Enter in the field with no suggestion chosen. */
  submit(): void;
  /** The field changed (a pick, a clear, typing). */
  changed?(): void;
}

export class EndpointField {
  readonly input: HTMLInputElement;
  readonly list: HTMLUListElement;
  readonly root: HTMLElement;
  private picked: Endpoint | undefined;
  private items: NodeView[] = [];
  private active = -1;

  constructor(private readonly o: EndpointFieldOptions) {
    const listId = `${o.id}-options`;
    this.input = h('input', {
      type: 'text',
      id: o.id,
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': listId,
      'aria-label': o.label,
      placeholder: o.placeholder,
      autocomplete: 'off',
      spellcheck: 'false',
    });
    this.list = h('ul', { id: listId, role: 'listbox', class: 'suggest-list', 'aria-label': `${o.label}: suggestions`, hidden: true });
    this.root = h('span', { class: 'endpoint-field' }, this.input, this.list);
    this.input.addEventListener('focus', () => {
      if (this.picked) this.input.select();
    });
    this.input.addEventListener('input', () => {
      this.picked = undefined;
      const text = this.input.value.trim();
      if (text.length >= 2) o.suggest(text);
      else this.close();
      o.changed?.();
    });
    this.input.addEventListener('keydown', (e) => this.key(e));
    this.input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
  }

  /** The node the field holds, when one was picked or set (typing drops it). */
  get endpoint(): Endpoint | undefined {
    return this.picked;
  }

  /** What to ask the host about: the id under the label, else the text as typed (the host resolves a unique name). */
  get query(): string {
    return this.picked?.id ?? this.input.value.trim();
  }

  /** Shows a node (its label; the id stays underneath), or clears the field. */
  set(e: Endpoint | undefined): void {
    this.picked = e;
    this.input.value = e?.label ?? '';
    this.input.title = e ? e.label : '';
    this.close();
  }

  /** The host's suggestions for what was typed: label, kind and place per row. */
  offer(items: NodeView[]): void {
    this.items = items;
    this.active = -1;
    clear(this.list);
    items.forEach((n, i) => {
      const place = placeOfView(n);
      // The name whole on its line; under it the kind and place, cut with an ellipsis where the view
      // is narrow and whole in its title (docs/adr/0174). The space keeps the two apart when read aloud.
      const detail = place ? `${n.kind} · ${place}` : n.kind;
      const li = h(
        'li',
        { role: 'option', id: `${this.o.id}-opt-${i}`, class: 'suggest-item', 'aria-selected': 'false' },
        h('span', { class: 'suggest-label' }, ...breakable(n.label)),
        h('span', { class: 'suggest-detail', title: detail }, ` ${detail}`),
      );
      li.title = [n.label, n.kind, place].filter(Boolean).join(' · ');
      // mousedown, not click: the input's blur would close the list before the click lands.
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        this.pick(i);
      });
      this.list.append(li);
    });
    const open = items.length > 0 && document.activeElement === this.input;
    this.list.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    if (open) this.fit();
  }

  /**
   * Keeps the open list inside the view (docs/adr/0174): as wide as its rows, never wider than the
   * view; moved left where it would pass the view's right edge (a field far right, a narrow side
   * bar); opened above the field when there is more room there than below. Geometry only, through
   * the style object (the CSP refuses style attributes, not the CSSOM); the stylesheet keeps the look.
   */
  private fit(): void {
    const list = this.list;
    const view = document.documentElement;
    const margin = 4;
    list.style.left = '';
    list.style.maxHeight = '';
    list.classList.remove('suggest-above');
    const field = this.root.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    const over = box.right - (view.clientWidth - margin);
    if (over > 0) list.style.left = `${-Math.min(over, box.left - margin)}px`;
    const below = view.clientHeight - field.bottom - margin;
    const above = field.top - margin;
    const tall = box.height;
    const up = tall > below && above > below;
    list.classList.toggle('suggest-above', up);
    if (tall > (up ? above : below)) list.style.maxHeight = `${Math.max(0, Math.floor(up ? above : below) - 2)}px`;
  }

  private pick(i: number): void {
    const n = this.items[i];
    if (!n) return;
    this.set({ id: n.id, label: n.label });
    this.o.changed?.();
  }

  private close(): void {
    this.list.hidden = true;
    this.active = -1;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private move(delta: number): void {
    if (this.items.length === 0) return;
    if (this.list.hidden) {
      this.list.hidden = false;
      this.fit();
    }
    this.input.setAttribute('aria-expanded', 'true');
    this.active = (this.active + delta + this.items.length) % this.items.length;
    [...this.list.children].forEach((li, i) => {
      li.setAttribute('aria-selected', String(i === this.active));
      li.classList.toggle('active', i === this.active);
    });
    const li = this.list.children[this.active];
    this.input.setAttribute('aria-activedescendant', li.id);
    li.scrollIntoView({ block: 'nearest' });
  }

  private key(e: KeyboardEvent): void {
    const open = !this.list.hidden;
    switch (e.key) {
      case 'ArrowDown':
        this.move(1);
        break;
      case 'ArrowUp':
        this.move(-1);
        break;
      case 'Enter':
        if (open && this.active >= 0) this.pick(this.active);
        else {
          this.close();
          this.o.submit();
        }
        break;
      case 'Escape':
        if (!open) return;
        this.close();
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
}
