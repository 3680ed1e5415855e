// The HTML of both webviews, built by a pure function so a unit test can read its Content Security
// Policy (test/unit/webview-html.test.ts). No data is ever interpolated here: the page is a fixed
// shell, and everything it shows arrives later through postMessage (docs/adr/0068).

import { randomBytes } from 'node:crypto';

export type WebviewKind = 'explorer' | 'path-finder';

export interface HtmlInput {
  kind: WebviewKind;
  /** `webview.cspSource`: the origin VS Code serves local resources from. */
  cspSource: string;
  /** `asWebviewUri` of dist/webview/<kind>.js and media/webview.css. */
  scriptUri: string;
  styleUri: string;
  /** A fresh nonce per render; tests pass their own. */
  nonce?: string;
}

/** 128 bits from the platform's CSPRNG, base64: a nonce no page can guess. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The policy: nothing by default; scripts only with this render's nonce; styles and fonts only from
 * the extension's own files (Cytoscape's container rule is in media/webview.css, so it injects no
 * `<style>`); images from there and `data:` (the PNG export draws the canvas to a data URL).
 */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

const TITLES: Record<WebviewKind, string> = { explorer: 'Graph Explorer', 'path-finder': 'Path Finder' };

/** Escapes a value for a double-quoted attribute (the URIs and nonce are ours, but stay careful). */
function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function buildWebviewHtml(input: HtmlInput): string {
  const nonce = input.nonce ?? newNonce();
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) throw new Error('a nonce must be at least 16 base64 characters');
  const csp = contentSecurityPolicy(input.cspSource, nonce);
  // Cytoscape looks for an element with this id before injecting its own <style>; the stylesheet
  // carries the one rule it would have injected (media/webview.css).
  const styleId = input.kind === 'explorer' ? ' id="__________cytoscape_stylesheet"' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet"${styleId} href="${attr(input.styleUri)}">
<title>${TITLES[input.kind]}</title>
</head>
<body class="kg-${input.kind}">
<div id="app" data-view="${input.kind}"></div>
<script nonce="${attr(nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>
`;
}
