// XML read by a real parser (saxes), for the tests of the SVG pictures (ADR 156): a tree of
// elements, or an error on anything that is not well-formed.

import { SaxesParser } from 'saxes';

/** A parsed XML element: its name, attributes, text and children. */
export interface El {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: El[];
}

/** Parses with a real XML parser (saxes): throws on anything that is not well-formed. */
export function parseXml(xml: string): El {
  const parser = new SaxesParser();
  const root: El = { name: '#document', attributes: {}, text: '', children: [] };
  const stack: El[] = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (t) => {
    const el: El = { name: t.name, attributes: t.attributes as Record<string, string>, text: '', children: [] };
    stack[stack.length - 1].children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (t) => {
    stack[stack.length - 1].text += t;
  });
  parser.write(xml).close();
  return root.children[0];
}

export function all(el: El, name: string): El[] {
  const out: El[] = [];
  const walk = (e: El) => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}
