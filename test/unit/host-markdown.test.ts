// Graph text in tooltips and hovers is text, not markdown (ADR 96): the God Nodes tree's and the
// status bar's tooltips, built from hostile ids and paths, are rendered with a CommonMark parser
// (markdown-it, with autolinks on, as GitHub-flavoured renderers do) and must hold no link, image
// or HTML — and must still show the text.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import MarkdownIt from 'markdown-it';
import { godNodeTooltip, neighbourTooltip, statusTooltip } from '../../src/host/graph-text';
import { markdownCode, markdownText } from '../../src/host/markdown-text';
import type { FolderGraphState } from '../../src/host/graph-access';

const md = new MarkdownIt({ html: true, linkify: true });
const render = (text: string) => md.render(text);
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function assertInert(html: string): void {
  assert.doesNotMatch(html, /<a[\s>]|<img[\s>]|<script|<iframe|<svg/i, html);
}

// A directory named like an image, a method named with a backticked link, raw HTML, an autolink.
const IMAGE_DIR = 'src/![t](https:evil.example/p.png).ts';
const LINK_METHOD = 'sym:src/a.ts#Widget.`[click](https://evil.example)`';
const HOSTILE = [
  IMAGE_DIR,
  LINK_METHOD,
  'src/<img src=x onerror=alert(1)>.ts',
  'src/www.evil.example/a.ts',
  'src/x.ts#`` ` ``',
  '[a]: https://evil.example',
];

describe('markdown from graph text', () => {
  for (const text of HOSTILE) {
    it(`shows ${JSON.stringify(text)} as text, as plain text and in a code span`, () => {
      const plain = render(markdownText(text));
      assertInert(plain);
      assert.equal(textOf(plain).trim(), text);
      const code = render(markdownCode(text));
      assertInert(code);
      assert.equal(textOf(code).trim(), text);
    });
  }

  it('the God Nodes tooltips hold no link or image for a hostile file and method', () => {
    const file = godNodeTooltip(`file:${IMAGE_DIR}`, { kind: 'file', sourceFile: IMAGE_DIR, line: 1 }, 268);
    assertInert(render(file));
    assert.ok(textOf(render(file)).includes(`${IMAGE_DIR}:1`));
    const method = godNodeTooltip(LINK_METHOD, { kind: 'method', sourceFile: 'src/a.ts', line: 3 }, 12);
    assertInert(render(method));
    assert.ok(textOf(render(method)).includes(LINK_METHOD));
    const neighbour = neighbourTooltip(LINK_METHOD, 'EXACT', { file: IMAGE_DIR, line: 2, column: 3 });
    assertInert(render(neighbour));
    assert.ok(textOf(render(neighbour)).includes(`seen at ${IMAGE_DIR}:2:3`));
  });

  it('the status bar tooltip holds no link or image for hostile stale files, reasons and folder names', () => {
    const stale = {
      kind: 'ready',
      nodes: 3,
      edges: 2,
      callsLayer: true,
      staleFiles: [IMAGE_DIR, 'src/`[x](https://evil.example)`.ts'],
    } as unknown as FolderGraphState;
    const html = render(statusTooltip(stale, '[repo](https://evil.example)'));
    assertInert(html);
    assert.ok(textOf(html).includes(IMAGE_DIR));
    const unusable = {
      kind: 'unusable',
      reason: `node id "${LINK_METHOD}" appears more than once`,
      staleFiles: [],
    } as unknown as FolderGraphState;
    const html2 = render(statusTooltip(unusable, undefined));
    assertInert(html2);
    assert.ok(textOf(html2).includes(LINK_METHOD));
  });
});
