// Ids across repositories (ADR 112): in an answer about the whole organisation every id is written
// `<repository>/<id>` — `acme/web/sym:src/a.ts#run`. A repository key has no ":" and an id's prefix
// has no "/", so the last "/" before the first ":" splits the two, and an id that is not qualified
// (`sym:src/a.ts#run`) has no "/" there at all.

export interface Qualified {
  /** undefined: the id names no repository. */
  repository?: string;
  id: string;
}

export function qualify(repository: string, id: string): string {
  return `${repository}/${id}`;
}

export function splitQualified(text: string): Qualified {
  const colon = text.indexOf(':');
  const slash = colon < 0 ? -1 : text.lastIndexOf('/', colon);
  return slash <= 0 ? { id: text } : { repository: text.slice(0, slash), id: text.slice(slash + 1) };
}
