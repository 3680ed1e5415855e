// What the running editor offers, read from its version (vscode.version) where feature detection
// alone would be noisy: VS Code 1.100 exposes an earlier, proposed shape of the MCP server API that
// refuses our registration and logs the refusal (ADR 154).

/** The first VS Code whose `vscode.lm.registerMcpServerDefinitionProvider` is the finished API. */
export const MCP_SERVER_DEFINITIONS_SINCE = '1.101.0';

/** `major.minor.patch` of a version string such as `1.100.3` or `1.101.0-insider`; undefined when it is not one. */
function parts(version: string): [number, number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Whether an editor of this version takes MCP server definitions; an unreadable version is tried (the registration still guards itself). */
export function takesMcpServerDefinitions(version: string): boolean {
  const v = parts(version);
  const since = parts(MCP_SERVER_DEFINITIONS_SINCE);
  if (!v || !since) return true;
  for (let i = 0; i < 3; i++) if (v[i] !== since[i]) return v[i] > since[i];
  return true;
}
