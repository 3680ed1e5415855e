// The editor's colours, read from the `--vscode-*` variables VS Code sets on the page, so both
// webviews follow light, dark and high-contrast themes. Cytoscape draws on a canvas and needs
// concrete colours, so the explorer reads them here and restyles when the theme changes.

export interface Theme {
  kind: 'light' | 'dark' | 'high-contrast' | 'high-contrast-light';
  background: string;
  foreground: string;
  muted: string;
  border: string;
  focus: string;
  warning: string;
  error: string;
  selection: string;
  find: string;
  /** Relation colours. */
  calls: string;
  imports: string;
  inheritance: string;
  cites: string;
  contains: string;
  /** Node fills by kind. */
  kinds: Record<string, string>;
  fontFamily: string;
}

function themeKind(): Theme['kind'] {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'high-contrast-light';
  if (c.contains('vscode-high-contrast')) return 'high-contrast';
  if (c.contains('vscode-dark')) return 'dark';
  return 'light';
}

export function readTheme(): Theme {
  const style = getComputedStyle(document.documentElement);
  const kind = themeKind();
  const dark = kind === 'dark' || kind === 'high-contrast';
  const v = (name: string, fallback: string): string => style.getPropertyValue(`--vscode-${name}`).trim() || fallback;
  const foreground = v('editor-foreground', dark ? '#cccccc' : '#333333');
  const contrast = v('contrastBorder', '');
  return {
    kind,
    background: v('editor-background', dark ? '#1e1e1e' : '#ffffff'),
    foreground,
    muted: v('descriptionForeground', dark ? '#9d9d9d' : '#717171'),
    border: contrast || v('panel-border', dark ? '#444444' : '#cccccc'),
    focus: v('focusBorder', '#007fd4'),
    warning: v('editorWarning-foreground', dark ? '#cca700' : '#bf8803'),
    error: v('editorError-foreground', '#f14c4c'),
    selection: v('editor-selectionBackground', dark ? '#264f78' : '#add6ff'),
    find: v('editor-findMatchBorder', v('charts-orange', '#d18616')),
    calls: v('charts-blue', dark ? '#3794ff' : '#1a85ff'),
    imports: v('charts-green', dark ? '#89d185' : '#388a34'),
    inheritance: v('charts-purple', dark ? '#b180d7' : '#652d90'),
    cites: v('charts-orange', '#d18616'),
    contains: v('descriptionForeground', dark ? '#9d9d9d' : '#717171'),
    kinds: {
      function: v('symbolIcon-functionForeground', v('charts-purple', '#b180d7')),
      method: v('symbolIcon-methodForeground', v('charts-purple', '#b180d7')),
      class: v('symbolIcon-classForeground', v('charts-orange', '#ee9d28')),
      interface: v('symbolIcon-interfaceForeground', v('charts-blue', '#75beff')),
      type: v('symbolIcon-typeParameterForeground', foreground),
      enum: v('symbolIcon-enumeratorForeground', v('charts-orange', '#ee9d28')),
      variable: v('symbolIcon-variableForeground', v('charts-blue', '#75beff')),
      namespace: v('symbolIcon-namespaceForeground', foreground),
      file: v('symbolIcon-fileForeground', foreground),
      module: v('symbolIcon-moduleForeground', foreground),
      rationale: v('charts-green', '#388a34'),
      'doc-concept': v('charts-green', '#388a34'),
      unresolved: v('editorWarning-foreground', '#cca700'),
    },
    fontFamily: v('font-family', 'sans-serif'),
  };
}

/** Calls `onChange` when VS Code switches the theme (it rewrites the body's classes and the variables). */
export function watchTheme(onChange: () => void): void {
  const observer = new MutationObserver(() => onChange());
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
}
