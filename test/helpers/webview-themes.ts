// Plausible `--vscode-*` values of VS Code's default Light+, Dark+ and High Contrast themes, for
// rendering the webviews outside the editor (the Chromium test and the bench). VS Code sets these
// on the page's <html> element; here they come from a stylesheet on the webview's own origin.

export type ThemeName = 'light' | 'dark' | 'high-contrast';

const COMMON = {
  'font-family': '-apple-system, BlinkMacSystemFont, "Segoe UI", "Liberation Sans", sans-serif',
  'font-size': '13px',
  'editor-font-family': '"Liberation Mono", monospace',
};

export const THEMES: Record<ThemeName, { bodyClass: string; vars: Record<string, string> }> = {
  light: {
    bodyClass: 'vscode-light',
    vars: {
      ...COMMON,
      foreground: '#616161', 'editor-foreground': '#3b3b3b', 'editor-background': '#ffffff', descriptionForeground: '#717171',
      'panel-border': '#e5e5e5', focusBorder: '#005fb8', 'editorWarning-foreground': '#bf8803', 'editorError-foreground': '#e51400',
      'editor-selectionBackground': '#add6ff', 'editor-findMatchBorder': '#d18616',
      'charts-blue': '#1a85ff', 'charts-green': '#388a34', 'charts-purple': '#652d90', 'charts-orange': '#d18616', 'charts-yellow': '#bf8803', 'charts-red': '#e51400',
      'symbolIcon-functionForeground': '#652d90', 'symbolIcon-methodForeground': '#652d90', 'symbolIcon-classForeground': '#d67e00',
      'symbolIcon-interfaceForeground': '#007acc', 'symbolIcon-variableForeground': '#007acc', 'symbolIcon-fileForeground': '#616161', 'symbolIcon-moduleForeground': '#616161',
      'button-background': '#005fb8', 'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8',
      'input-background': '#ffffff', 'input-foreground': '#3b3b3b', 'input-border': '#cecece', 'dropdown-background': '#ffffff', 'dropdown-foreground': '#3b3b3b', 'dropdown-border': '#cecece',
      'textLink-foreground': '#005fb8', 'sideBar-background': '#f8f8f8', 'editorWidget-background': '#f8f8f8',
      'inputValidation-warningBackground': '#f6f5d2', 'inputValidation-warningBorder': '#b89500', 'inputValidation-errorBackground': '#f2dede', 'inputValidation-errorBorder': '#be1100',
      'inputValidation-infoBackground': '#d6ecf2', 'inputValidation-infoBorder': '#007acc',
    },
  },
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      ...COMMON,
      foreground: '#cccccc', 'editor-foreground': '#cccccc', 'editor-background': '#1f1f1f', descriptionForeground: '#9d9d9d',
      'panel-border': '#2b2b2b', focusBorder: '#0078d4', 'editorWarning-foreground': '#cca700', 'editorError-foreground': '#f14c4c',
      'editor-selectionBackground': '#264f78', 'editor-findMatchBorder': '#d18616',
      'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'charts-orange': '#d18616', 'charts-yellow': '#cca700', 'charts-red': '#f14c4c',
      'symbolIcon-functionForeground': '#b180d7', 'symbolIcon-methodForeground': '#b180d7', 'symbolIcon-classForeground': '#ee9d28',
      'symbolIcon-interfaceForeground': '#75beff', 'symbolIcon-variableForeground': '#75beff', 'symbolIcon-fileForeground': '#cccccc', 'symbolIcon-moduleForeground': '#cccccc',
      'button-background': '#0078d4', 'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1',
      'input-background': '#313131', 'input-foreground': '#cccccc', 'input-border': '#3c3c3c', 'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc', 'dropdown-border': '#3c3c3c',
      'textLink-foreground': '#4daafc', 'sideBar-background': '#181818', 'editorWidget-background': '#202020',
      'inputValidation-warningBackground': '#352a05', 'inputValidation-warningBorder': '#b89500', 'inputValidation-errorBackground': '#5a1d1d', 'inputValidation-errorBorder': '#be1100',
      'inputValidation-infoBackground': '#063b49', 'inputValidation-infoBorder': '#007acc',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      ...COMMON,
      foreground: '#ffffff', 'editor-foreground': '#ffffff', 'editor-background': '#000000', descriptionForeground: '#ffffff',
      'panel-border': '#6fc3df', contrastBorder: '#6fc3df', focusBorder: '#f38518', 'editorWarning-foreground': '#ffd370', 'editorError-foreground': '#ff3232',
      'editor-selectionBackground': '#ffffff', 'editor-findMatchBorder': '#f38518',
      'charts-blue': '#3794ff', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'charts-orange': '#d18616', 'charts-yellow': '#ffd370', 'charts-red': '#ff3232',
      'symbolIcon-functionForeground': '#b180d7', 'symbolIcon-methodForeground': '#b180d7', 'symbolIcon-classForeground': '#ee9d28',
      'symbolIcon-interfaceForeground': '#75beff', 'symbolIcon-variableForeground': '#75beff', 'symbolIcon-fileForeground': '#ffffff', 'symbolIcon-moduleForeground': '#ffffff',
      'button-background': '#000000', 'button-foreground': '#ffffff', 'button-border': '#6fc3df', 'button-hoverBackground': '#000000',
      'input-background': '#000000', 'input-foreground': '#ffffff', 'input-border': '#6fc3df', 'dropdown-background': '#000000', 'dropdown-foreground': '#ffffff', 'dropdown-border': '#6fc3df',
      'textLink-foreground': '#21a6ff', 'sideBar-background': '#000000', 'editorWidget-background': '#0c141f',
      'inputValidation-warningBackground': '#000000', 'inputValidation-warningBorder': '#ffd370', 'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#ff3232',
      'inputValidation-infoBackground': '#000000', 'inputValidation-infoBorder': '#6fc3df',
    },
  },
};

export function themeCss(name: ThemeName): string {
  return `:root {\n${Object.entries(THEMES[name].vars).map(([k, v]) => `  --vscode-${k}: ${v};`).join('\n')}\n}\n`;
}
