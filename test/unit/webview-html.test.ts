// src/host/panel/html.ts: the webviews' page is a fixed shell under a strict Content Security
// Policy with a fresh nonce per render; nothing is interpolated but our own URIs.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildWebviewHtml, contentSecurityPolicy, newNonce } from '../../src/host/panel/html';

const input = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://res/dist/webview/explorer.js',
  styleUri: 'https://res/media/webview.css',
};

function csp(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'a CSP meta tag');
  return m[1].replace(/&#39;|&apos;/g, "'");
}

describe('webview HTML', () => {
  for (const kind of ['explorer', 'path-finder'] as const) {
    it(`${kind}: default-src 'none', scripts by nonce only, no unsafe-*`, () => {
      const html = buildWebviewHtml({ kind, ...input, nonce: 'AAAAAAAAAAAAAAAAAAAAAA==' });
      const policy = csp(html);
      assert.match(policy, /^default-src 'none'; /);
      assert.match(policy, /script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='(;|$)/);
      assert.match(policy, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net(;|$)/);
      assert.doesNotMatch(policy, /unsafe-|\*|https?:(?!\/\/file\+)/);
      // One script, from our bundle, carrying the nonce; no inline script, no inline style.
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      assert.deepEqual(scripts, [`<script nonce="AAAAAAAAAAAAAAAAAAAAAA==" src="${input.scriptUri}">`]);
      assert.match(html, /<script [^>]*><\/script>/);
      assert.doesNotMatch(html, /<style|\sstyle="|\son\w+=/i);
      assert.match(html, new RegExp(`<link rel="stylesheet"[^>]* href="${input.styleUri}">`));
    });
  }

  it('names the explorer stylesheet so Cytoscape injects no <style> of its own', () => {
    assert.match(buildWebviewHtml({ kind: 'explorer', ...input }), /<link rel="stylesheet" id="__________cytoscape_stylesheet"/);
    assert.doesNotMatch(buildWebviewHtml({ kind: 'path-finder', ...input }), /cytoscape/);
  });

  it('uses a fresh 128-bit nonce for every render', () => {
    const a = csp(buildWebviewHtml({ kind: 'explorer', ...input }));
    const b = csp(buildWebviewHtml({ kind: 'explorer', ...input }));
    assert.notEqual(a, b);
    const nonces = new Set(Array.from({ length: 200 }, newNonce));
    assert.equal(nonces.size, 200);
    for (const n of nonces) assert.equal(Buffer.from(n, 'base64').length, 16);
  });

  it('refuses a nonce that is short or could break out of the attribute', () => {
    assert.throws(() => buildWebviewHtml({ kind: 'explorer', ...input, nonce: 'abc' }));
    assert.throws(() => buildWebviewHtml({ kind: 'explorer', ...input, nonce: '"><script>alert(1)</script>AAAAAAAA' }));
  });

  it('escapes the URIs it is given', () => {
    const html = buildWebviewHtml({ kind: 'explorer', ...input, scriptUri: 'https://res/a".js?<x>' });
    assert.match(html, /src="https:\/\/res\/a&quot;\.js\?&lt;x&gt;"/);
  });

  it('the policy lists no source beyond the webview resource origin and data: images', () => {
    assert.equal(
      contentSecurityPolicy('vscode-res:', 'N'),
      "default-src 'none'; script-src 'nonce-N'; style-src vscode-res:; font-src vscode-res:; img-src vscode-res: data:",
    );
  });
});
