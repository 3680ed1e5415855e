// Draws media/icon.png (128×128): a small graph — five nodes, the edges between them, one edge
// dashed for a guess — on a dark rounded square. Written from scratch with node:zlib so the
// icon is the project's own and can be regenerated: node scripts/make-icon.mjs

import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

const N = 128;
const S = 4; // supersampling per axis, for smooth edges
const px = new Float32Array(N * N * 4); // straight RGBA, averaged over the covered samples

const bg = [0x1e, 0x2a, 0x3a];
const edge = [0x9f, 0xb7, 0xd0];
const guess = [0xe0, 0xa8, 0x3c];
const node = [0x4f, 0xc3, 0xf7];
const hub = [0x7c, 0xe3, 0x8b];

const nodes = [
  { x: 64, y: 40, r: 15, c: hub },
  { x: 30, y: 84, r: 11, c: node },
  { x: 98, y: 84, r: 11, c: node },
  { x: 64, y: 104, r: 9, c: node },
  { x: 100, y: 30, r: 8, c: node },
];
const edges = [
  [0, 1, false],
  [0, 2, false],
  [1, 3, false],
  [2, 3, false],
  [0, 4, true],
];

function distToSegment(px_, py, a, b) {
  const dx = b.x - a.x,
    dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((px_ - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy)));
  return { d: Math.hypot(px_ - (a.x + t * dx), py - (a.y + t * dy)), t, len: Math.hypot(dx, dy) };
}

function colourAt(x, y) {
  // rounded square background, radius 24
  const r = 24,
    cx = Math.min(Math.max(x, r), N - r),
    cy = Math.min(Math.max(y, r), N - r);
  if (Math.hypot(x - cx, y - cy) > r) return null;
  let c = bg;
  for (const [a, b, dashed] of edges) {
    const { d, t, len } = distToSegment(x, y, nodes[a], nodes[b]);
    if (d <= 3.2 && (!dashed || Math.floor((t * len) / 7) % 2 === 0)) c = dashed ? guess : edge;
  }
  for (const n of nodes) {
    const d = Math.hypot(x - n.x, y - n.y);
    if (d <= n.r) c = d >= n.r - 2.5 ? [0xff, 0xff, 0xff] : n.c;
  }
  return c;
}

for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    for (let sy = 0; sy < S; sy++) {
      for (let sx = 0; sx < S; sx++) {
        const c = colourAt(x + (sx + 0.5) / S, y + (sy + 0.5) / S);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        a += 1;
      }
    }
    const k = (y * N + x) * 4;
    const n = S * S;
    px[k] = a ? r / a : 0;
    px[k + 1] = a ? g / a : 0;
    px[k + 2] = a ? b / a : 0;
    px[k + 3] = (255 * a) / n;
  }
}

// PNG: signature, IHDR, one IDAT (filter 0 per row), IEND.
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) {
  raw[y * (N * 4 + 1)] = 0;
  for (let i = 0; i < N * 4; i++) raw[y * (N * 4 + 1) + 1 + i] = Math.round(px[y * N * 4 + i]);
}
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr[8] = 8;
ihdr[9] = 6;
ihdr[10] = 0;
ihdr[11] = 0;
ihdr[12] = 0; // 8-bit RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.mkdirSync('media', { recursive: true });
fs.writeFileSync('media/icon.png', png);
console.log(`media/icon.png: ${png.length} bytes`);
