// What a reader needs of the explorer's picture (docs/adr/0095): hubs outside the rest, no label
// over the focus or over another label, labels large enough to read at the fitted zoom, none clipped. Read in
// the page from the Cytoscape instance the explorer registers on its container. A string, so that
// none of the caller's compiled code travels into the page. Used by the Chromium webview test,
// the real-editor explorer test and the pictures bench: one definition of a clean picture.

export interface PictureFacts {
  /** Nodes drawn (compound parents aside). */
  nodes: number;
  hubs: number;
  /** Distance from the focus of the nearest hub, and of the farthest node that is not one. */
  innermostHub: number;
  outermostRest: number;
  hubsOutside: boolean;
  /** Labels drawn over the focus node, and pairs of labels over each other. */
  overFocus: number;
  clashes: number;
  /** Labelled nodes besides the focus. */
  labelled: number;
  /** The smallest label, in screen pixels at the current zoom. */
  minLabelPx: number;
  zoom: number;
  /**
   * Labels drawn through a box narrower than their text at the font they have now (measured as
   * Cytoscape measures it; a text past its max width, cut with an ellipsis, at least 90% of that
   * width): drawn clipped at both ends, "nstants" for "constants" (issue 55). At most 10, as
   * "label: box < text px".
   */
  clipped: string[];
}

export const READ_PICTURE = `(() => {
  const cy = document.getElementById('cy')._cyreg.cy;
  const focus = cy.nodes('.focus').first();
  const c = focus.position();
  const far = (n) => Math.hypot(n.position().x - c.x, n.position().y - c.y);
  const hubs = cy.nodes('.hub');
  const rest = cy.nodes().filter((n) => !n.isParent() && !n.hasClass('hub'));
  const only = { includeOverlays: false, includeUnderlays: false };
  const fb = focus.boundingBox({ includeLabels: false, ...only });
  const over = (a, b) => a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
  const labelled = cy.nodes().filter((n) => !n.isParent() && !n.hasClass('label-off') && n.id() !== focus.id());
  const boxes = labelled.map((n) => n.boundingBox({ includeNodes: false, includeLabels: true, ...only }));
  const px = labelled.map((n) => parseFloat(n.style('font-size')) * cy.zoom());
  let clashes = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (over(boxes[i], boxes[j])) clashes++;
  const measure = document.createElement('canvas').getContext('2d');
  const clipped = [];
  labelled.forEach((n, i) => {
    const text = n._private.rscratch.labelWrapCachedText || n.data('label') || '';
    measure.font = [n.pstyle('font-style').strValue, n.pstyle('font-weight').strValue, n.pstyle('font-size').pfValue + 'px', n.pstyle('font-family').strValue].join(' ');
    // Past its max width the text is cut with an ellipsis, which ends a character short of the max.
    const full = Math.ceil(measure.measureText(text).width);
    const max = n.pstyle('text-max-width').pfValue;
    const want = full <= max ? full : 0.9 * max;
    if (boxes[i].w + 0.5 < want && clipped.length < 10) clipped.push(text + ': ' + Math.round(boxes[i].w) + ' < ' + want + ' px');
  });
  const innermostHub = Math.min(...hubs.map(far));
  const outermostRest = Math.max(...rest.map(far));
  return {
    nodes: rest.length + hubs.length,
    hubs: hubs.length,
    innermostHub,
    outermostRest,
    hubsOutside: hubs.length === 0 || innermostHub > outermostRest,
    overFocus: boxes.filter((b) => over(b, fb)).length,
    clashes,
    labelled: labelled.length,
    minLabelPx: Math.round(Math.min(...px) * 10) / 10,
    zoom: Math.round(cy.zoom() * 100) / 100,
    clipped,
  };
})()`;
