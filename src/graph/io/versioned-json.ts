// JSON that carries the version of its format: the manifest beside graph.json (`manifestVersion`)
// and `kg diff`'s report (`reportVersion`). Each reader opens it the same way before checking its
// own fields: parsed, an object, of the one version this reader knows. Each says in its own words
// what is wrong.

/** What a reader says when the text is not JSON, not an object, or of another version (the one it carries). */
interface VersionedJsonProblems {
  notJson: string;
  notObject: string;
  version: (found: unknown) => string;
}

/** `text` as an object whose `key` is `version`, or the problem that keeps it from being one. */
export function parseVersionedJson(
  text: string,
  key: string,
  version: number,
  say: VersionedJsonProblems,
): { value: Record<string, unknown> } | { problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: say.notJson };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: say.notObject };
  const value = v as Record<string, unknown>;
  return value[key] === version ? { value } : { problem: say.version(value[key]) };
}
