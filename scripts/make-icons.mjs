// Renders every icon under assets/ from the vector sources in assets/src/ (run by hand; its outputs
// are committed, so neither `npm run build` nor `npm run dist` depends on it).
//
// To rerun after editing a source:  node scripts/make-icons.mjs   then commit assets/.
// The output is deterministic: rerunning without changing a source leaves git clean.
//
// Tray sources paint in hex colours only and cut details out with masks (white/black keywords), so
// the macOS template variant is the same drawing with every hex colour turned black: it keeps its
// shapes and holes, and macOS tints it for light and dark menu bars.
import { Resvg } from '@resvg/resvg-js';
import { decode } from 'fast-png';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const assets = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
const STATES = ['idle', 'syncing', 'paused', 'offline', 'error', 'attention'];
const TRAY_ICO_SIZES = [16, 20, 24, 32, 40, 48];
const APP_ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];
// ICNS entries that hold PNG data, by pixel size (the @2x types share sizes with the 1x ones).
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['ic11', 32],
  ['ic12', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic13', 256],
  ['ic09', 512],
  ['ic14', 512],
  ['ic10', 1024],
];

const source = (name) => readFileSync(join(assets, 'src', `${name}.svg`), 'utf8');
const template = (svg) => svg.replace(/#[0-9a-f]{6}\b/gi, '#000000');

/** @returns {Buffer} a PNG of `svg` scaled to `size` × `size` */
function render(svg, size) {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
}

function write(relative, data) {
  const file = join(assets, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
}

/**
 * One ICO image as a 32-bit DIB (BGRA rows bottom-up, then the 1-bit AND mask), the form every
 * Windows API and NSIS read; PNG-in-ICO is only used at 256 px, where Windows expects it.
 */
function dib(png) {
  const { width, height, data, channels, depth } = decode(png);
  if (channels !== 4 || depth !== 8)
    throw new Error(`expected 8-bit RGBA, got ${channels}×${depth}`);
  const maskStride = Math.ceil(width / 32) * 4;
  const out = Buffer.alloc(40 + width * height * 4 + maskStride * height);
  out.writeUInt32LE(40, 0);
  out.writeInt32LE(width, 4);
  out.writeInt32LE(height * 2, 8); // colour rows + mask rows
  out.writeUInt16LE(1, 12);
  out.writeUInt16LE(32, 14);
  out.writeUInt32LE(out.length - 40, 20);
  const mask = 40 + width * height * 4;
  for (let y = 0; y < height; y++) {
    const row = height - 1 - y;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const o = 40 + (row * width + x) * 4;
      out[o] = data[i + 2];
      out[o + 1] = data[i + 1];
      out[o + 2] = data[i];
      out[o + 3] = data[i + 3];
      if (data[i + 3] === 0) out[mask + row * maskStride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return out;
}

/** @param {{ size: number, png: Buffer }[]} images */
function ico(images) {
  const bodies = images.map(({ size, png }) => (size >= 256 ? png : dib(png)));
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size; // 0 means 256
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(bodies[i].length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += bodies[i].length;
  });
  return Buffer.concat([header, ...bodies]);
}

/** @param {[string, Buffer][]} entries OSType and PNG data */
function icns(entries) {
  const parts = entries.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

for (const state of STATES) {
  const svg = source(state);
  write(`tray/${state}.png`, render(svg, 24));
  write(`tray/${state}@2x.png`, render(svg, 48));
  write(`tray/${state}Template.png`, render(template(svg), 16));
  write(`tray/${state}Template@2x.png`, render(template(svg), 32));
  write(`tray/${state}.ico`, ico(TRAY_ICO_SIZES.map((size) => ({ size, png: render(svg, size) }))));
}

const app = source('app');
// Small Windows and Linux sizes drop macOS's inset margin: at 48 px and below it only shrinks the mark.
const FULL = 'viewBox="0 0 1024 1024"';
if (!app.includes(FULL))
  throw new Error(`assets/src/app.svg: expected ${FULL} (the tight crop assumes it)`);
const tight = app.replace(FULL, 'viewBox="100 100 824 824"');
const appAt = (size) => render(size <= 48 ? tight : app, size);
write('icon.png', render(app, 1024));
for (const size of LINUX_SIZES) write(`icons/${size}x${size}.png`, appAt(size));
write('icon.ico', ico(APP_ICO_SIZES.map((size) => ({ size, png: appAt(size) }))));
write('icon.icns', icns(ICNS_TYPES.map(([type, size]) => [type, render(app, size)])));
