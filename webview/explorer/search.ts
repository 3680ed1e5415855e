// The explorer's search box over the nodes drawn: the same order as the fields' autocomplete
// (docs/adr/0093, docs/adr/0148) — code before documents; the label typed, then a member's name
// typed, then names that start with it, then labels that hold it, then places (file paths) that
// hold it — and, within each, the better-connected first. Enter steps
// through the matches in that order. Case-insensitive; ids (escaped) are never searched.

export interface Searchable {
  id: string;
  /** The node's own label (not the hub decoration drawn on the canvas). */
  label: string;
  place: string;
  degree: number;
}

function tier(text: string, label: string, place: string): number {
  const member = label.slice(label.lastIndexOf('.') + 1).replace(/^#/, '');
  if (label === text) return 0;
  if (member === text) return 1;
  if (label.startsWith(text) || member.startsWith(text)) return 2;
  if (label.includes(text)) return 3;
  return place.includes(text) ? 4 : -1;
}

/** Headings, decision records and stamped notes come after the code. */
const document = (id: string): number => (/^(doc|adr|rationale):/.test(id) ? 1 : 0);

/** The ids of the nodes matching `text`, best first; none for blank text. */
export function rankShown(text: string, nodes: readonly Searchable[]): string[] {
  const t = text.trim().toLowerCase();
  if (!t) return [];
  return nodes
    .map((n) => ({ n, t: tier(t, n.label.toLowerCase(), n.place.toLowerCase()) }))
    .filter((x) => x.t >= 0)
    .sort(
      (a, b) =>
        document(a.n.id) - document(b.n.id) ||
        a.t - b.t ||
        b.n.degree - a.n.degree ||
        a.n.label.length - b.n.label.length ||
        (a.n.id < b.n.id ? -1 : 1),
    )
    .map((x) => x.n.id);
}
