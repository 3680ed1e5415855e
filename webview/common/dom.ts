// DOM helpers for the webviews. Text goes in as text (textContent), never as markup, so a symbol
// named `<img src=x onerror=…>` stays a name. No inline styles either: the CSP forbids them and the
// stylesheet (media/webview.css) owns every look. Geometry measured at run time (a suggestion list
// kept inside the view, endpoint-field.ts) is set through the CSSOM, which the CSP allows.

type Attrs = Record<string, string | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === 'style') throw new Error('inline styles are refused by the CSP');
    el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function must<T extends HTMLElement>(el: T | null, what: string): T {
  if (!el) throw new Error(`missing ${what}`);
  return el;
}
