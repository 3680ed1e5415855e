// The .vsix users install: exactly the files the extension runs and shows, no sources, tests,
// node_modules or source maps, within the size budget of docs/adr/0032. Runs in `npm run
// test:e2e`, right after `npm run package` built the package it reads.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as zlib from 'node:zlib';

const REPO = path.join(__dirname, '..', '..');
const VSIX = process.env.KG_E2E_VSIX ?? path.join(REPO, 'knowledge-graph.vsix');

/**
 * The size budget (ADR 32): the package a user downloads, and what it unpacks to. The file count
 * leaves out the docs it ships (docs/*.md and every decision record with their index, so the
 * README's links work in the installed extension): those are exactly the repository's docs,
 * counted apart, and grow by one with each record. The rest — bundles, the compiler's libraries,
 * icon, schemas — stays within `files` (133 after the twenty-ninth session), so a stray folder
 * still fails it.
 *
 * The component tools (dist/component-tools.js, 0.43 MB compressed) moved it to 3.5 MiB and
 * 14 MiB unpacked (ADR 173).
 */
export const BUDGET = { vsixBytes: 3.5 * 1024 * 1024, unpackedBytes: 14 * 1024 * 1024, files: 150 };

/**
 * A platform-specific package (npm run package:native, ADR 115) adds TypeScript 7's binary for its
 * platform (about 26 MB, 10 MB packed), the default libraries it reads from beside itself, and
 * three files of its package, and nothing else.
 */
const NATIVE_BUDGET = {
  vsixBytes: BUDGET.vsixBytes + 12 * 1024 * 1024,
  // the binary (26.2 MB at 7.1) and the 116 default libraries it reads from beside itself (3.9 MB)
  unpackedBytes: BUDGET.unpackedBytes + 34 * 1024 * 1024,
  files: BUDGET.files + 4 + 130,
};

/** The platform packages beside the universal one: knowledge-graph-<vsce target>.vsix. */
const PLATFORM_VSIXES = fs
  .readdirSync(path.dirname(VSIX))
  .filter((f) => /^knowledge-graph-[\w-]+\.vsix$/.test(f))
  .map((f) => path.join(path.dirname(VSIX), f));

const NATIVE_FILES =
  /^extension\/dist\/native\/typescript-[\w-]+\/(package\.json|LICENSE|NOTICE\.txt|lib\/tsc(\.exe)?|lib\/lib\.[\w.-]*d\.ts)$/;

interface Entry {
  name: string;
  size: number;
  data(): Buffer;
}

/** Reads a zip's central directory (enough for a .vsix: stored or deflated entries). */
function readZip(buf: Buffer): Entry[] {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  assert.ok(eocd >= 0, 'a zip end-of-central-directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: Entry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'a central directory entry');
    const method = buf.readUInt16LE(p + 10);
    const csize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nlen = buf.readUInt16LE(p + 28);
    const xlen = buf.readUInt16LE(p + 30);
    const clen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nlen);
    out.push({
      name,
      size,
      data: () => {
        const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
        const raw = buf.subarray(start, start + csize);
        return method === 0 ? Buffer.from(raw) : zlib.inflateRawSync(raw);
      },
    });
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/(package\.json|readme\.md|changelog\.md|LICENSE\.txt)$/,
  /^extension\/media\/(icon\.png|graph\.svg|webview\.css)$/,
  /^extension\/dist\/(extension|cli|engine-build|graph-worker|store|component-tools)\.js$/,
  /^extension\/dist\/component-types\/vue\/[\w.-]+\.d\.ts$/,
  /^extension\/dist\/lib(\.[\w.]+)?\.d\.ts$/,
  /^extension\/dist\/typescript-LICENSE\.txt$/,
  /^extension\/dist\/webview\/[\w-]+\.js$/,
  /^extension\/dist\/webview\/codicon(\.ttf|-LICENSE\.txt)$/,
  /^extension\/schema\/graph\.schema\.json$/,
  /^extension\/schema\/config\.schema\.json$/,
  /^extension\/docs\/([\w-]+\.md|adr\/\d{4}-[\w-]+\.md|adr\/README\.md)$/,
];

for (const vsix of [VSIX, ...PLATFORM_VSIXES]) describePackage(vsix);

function describePackage(vsix: string): void {
  const platform = vsix !== VSIX;
  const budget = platform ? NATIVE_BUDGET : BUDGET;
  describe(`the packaged ${path.basename(vsix)}`, () => {
    const bytes = fs.readFileSync(vsix);
    const entries = readZip(bytes);
    const names = entries.map((e) => e.name);
    const get = (name: string) => {
      const e = entries.find((x) => x.name === name);
      assert.ok(e, `${name} is in the package`);
      return e;
    };

    it('holds only allow-listed files', () => {
      const stray = names.filter((n) => !ALLOWED.some((re) => re.test(n)) && !(platform && NATIVE_FILES.test(n)));
      assert.deepEqual(stray, []);
    });

    it(
      platform ? "carries TypeScript 7's binary for its platform, executable" : 'has no native binary: the JavaScript checker only',
      () => {
        const native = names.filter((n) => n.startsWith('extension/dist/native/'));
        if (!platform) {
          assert.deepEqual(native, []);
          return;
        }
        const target = /knowledge-graph-([\w-]+)\.vsix$/.exec(vsix)?.[1] as string;
        const suffix =
          ({ 'linux-armhf': 'linux-arm', 'alpine-x64': 'linux-x64', 'alpine-arm64': 'linux-arm64' } as Record<string, string>)[target] ??
          target;
        const exe = `extension/dist/native/typescript-${suffix}/lib/${suffix.startsWith('win32') ? 'tsc.exe' : 'tsc'}`;
        assert.ok(names.includes(exe), `${exe} is packaged`);
        const m = JSON.parse(get(`extension/dist/native/typescript-${suffix}/package.json`).data().toString('utf8')) as { version: string };
        const pinned = (
          JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
            devDependencies: Record<string, string>;
          }
        ).devDependencies.typescript71;
        // The default release's binary, 7.1's (ADR 186).
        assert.equal(`npm:typescript@${m.version}`, pinned, 'the binary is the pinned TypeScript 7.1');
        const head = get(exe).data().subarray(0, 4);
        assert.ok(
          head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) ||
            head.subarray(0, 2).toString('ascii') === 'MZ' ||
            head.readUInt32BE(0) === 0xcffaedfe,
          'an executable',
        );
        // The binary stops at once without its default libraries beside it (ADR 186): on this
        // machine's platform, the packaged folder as it unpacks must check a project.
        if (`${process.platform}-${process.arch}` !== suffix) return;
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kg-native-pkg-'));
        try {
          const prefix = `extension/dist/native/typescript-${suffix}/`;
          for (const e of entries.filter((x) => x.name.startsWith(prefix))) {
            const to = path.join(dir, 'native', e.name.slice(prefix.length));
            fs.mkdirSync(path.dirname(to), { recursive: true });
            fs.writeFileSync(to, e.data());
          }
          assert.ok(fs.existsSync(path.join(dir, 'native', 'lib', 'lib.d.ts')), 'the default libraries are beside the binary');
          fs.chmodSync(path.join(dir, 'native', 'lib', 'tsc'), 0o755);
          fs.mkdirSync(path.join(dir, 'project'));
          fs.writeFileSync(
            path.join(dir, 'project', 'tsconfig.json'),
            JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, files: ['a.ts'] }),
          );
          fs.writeFileSync(path.join(dir, 'project', 'a.ts'), 'export const n: number = [1, 2].map((x) => x * 2).length;\n');
          const r = spawnSync(path.join(dir, 'native', 'lib', 'tsc'), ['-p', path.join(dir, 'project')], { encoding: 'utf8' });
          assert.equal(r.status, 0, `the packaged binary checks a project: ${r.stdout}${r.stderr}`);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    );

    it('holds what the extension needs to run: both bundles, the compiler libraries, icon, schema, docs', () => {
      for (const n of [
        'extension/package.json',
        'extension/dist/extension.js',
        'extension/dist/cli.js',
        'extension/dist/engine-build.js',
        'extension/dist/graph-worker.js',
        // Vue's and Svelte's tools and the types their code needs, loaded when a build meets a component (ADR 169)
        'extension/dist/component-tools.js',
        'extension/dist/component-types/vue/template-helpers.d.ts',
        'extension/media/graph.svg',
        'extension/dist/lib.d.ts',
        'extension/dist/lib.es5.d.ts',
        'extension/dist/lib.es2022.d.ts',
        'extension/media/icon.png',
        'extension/schema/graph.schema.json',
        'extension/schema/config.schema.json',
        'extension/readme.md',
        'extension/changelog.md',
        'extension/LICENSE.txt',
        'extension/docs/cli.md',
      ]) {
        assert.ok(names.includes(n), `${n} is packaged`);
      }
    });

    it('has no sources, tests, node_modules or source maps, and production bundles without map links', () => {
      assert.deepEqual(
        names.filter((n) => /\/(src|test|node_modules|scripts|bench|webview|out)\//.test(n) && !n.startsWith('extension/dist/webview/')),
        [],
      );
      assert.deepEqual(
        names.filter((n) => /\.map$|\.tsx?$/.test(n) && !n.endsWith('.d.ts')),
        [],
      );
      for (const n of [
        'extension/dist/extension.js',
        'extension/dist/cli.js',
        'extension/dist/engine-build.js',
        'extension/dist/graph-worker.js',
      ]) {
        // (the bundled compiler itself mentions the word; a map link is the comment at the very end)
        assert.doesNotMatch(get(n).data().toString('utf8'), /\/\/# sourceMappingURL=\S*\s*$/, `${n} is a production bundle`);
      }
    });

    it('declares the manifest users see: engine, entry, icon, categories, the build command, trust', () => {
      const m = JSON.parse(get('extension/package.json').data().toString('utf8'));
      assert.equal(m.engines.vscode, '^1.100.0');
      assert.equal(m.main, './dist/extension.js');
      assert.equal(m.icon, 'media/icon.png');
      assert.ok(m.categories.length > 0);
      assert.ok(m.contributes.commands.some((c: { command: string }) => c.command === 'knowledgeGraph.build'));
      assert.equal(m.capabilities.untrustedWorkspaces.supported, true);
      const png = get('extension/media/icon.png').data();
      assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
      assert.equal(png.readUInt32BE(16), 128, 'icon width');
      assert.equal(png.readUInt32BE(20), 128, 'icon height');
    });

    it("carries the marketplace page (docs/marketplace/README.md) as its README, and leaves the page's screenshots out (ADR 163)", () => {
      const repo = path.join(__dirname, '..', '..');
      const readme = /--readme-path (\S+)/.exec(
        (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.package,
      )?.[1];
      assert.ok(readme, 'npm run package names its README');
      assert.equal(get('extension/readme.md').data().toString('utf8'), fs.readFileSync(path.join(repo, readme), 'utf8'));
      // The editor's extension page shows only https pictures; the Marketplace shows them from the
      // URLs vsce writes at publishing. In the package they would be bytes nobody displays.
      assert.deepEqual(
        names.filter((n) => /\.(png|jpe?g|gif)$/i.test(n) && n !== 'extension/media/icon.png'),
        [],
      );
      const xml = get('extension.vsixmanifest').data().toString('utf8');
      for (const id of ['Links.Source', 'Links.Support', 'Links.Learn', 'Branding.Color', 'Branding.Theme'])
        assert.match(xml, new RegExp(`<Property Id="Microsoft\\.VisualStudio\\.Services\\.${id.replace('.', '\\.')}" Value="[^"]+"`), id);
    });

    it(`stays within the size budget (≤ ${budget.vsixBytes} bytes packed, ≤ ${budget.unpackedBytes} unpacked, ≤ ${budget.files} files besides the docs)`, () => {
      const unpacked = entries.reduce((s, e) => s + e.size, 0);
      console.log(`${path.basename(vsix)}: ${bytes.length} bytes, ${unpacked} unpacked, ${entries.length} files`);
      assert.ok(bytes.length <= budget.vsixBytes, `${bytes.length} bytes`);
      assert.ok(unpacked <= budget.unpackedBytes, `${unpacked} bytes unpacked`);
      const docs = names.filter((n) => n.startsWith('extension/docs/'));
      const repositoryDocs = [
        ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')),
        ...fs.readdirSync(path.join(REPO, 'docs', 'adr')).filter((f) => f.endsWith('.md')),
      ];
      assert.equal(docs.length, repositoryDocs.length, 'the docs shipped are the repository docs/*.md and docs/adr/*.md');
      assert.ok(entries.length - docs.length <= budget.files, `${entries.length - docs.length} files besides the docs`);
    });
  });
}
