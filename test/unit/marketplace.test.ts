// What a marketplace reads from the package (ADR 163), checked with @vscode/vsce's own code: the
// manifest validation `vsce package` and `vsce publish` run, the processors that write the
// extension.vsixmanifest a gallery reads (links, banner, categories, tags, licence, icon, page),
// the README processor as publishing runs it (relative pictures rewritten to a base URL, each then
// required to be https and not SVG), and vsce's list of the files the package takes. Then what vsce
// does not check: categories the editor knows, the keyword limit, the engine floor the e2e suite
// runs, and the page's pictures.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { REPO } from '../helpers/fixtures';

interface Manifest {
  name: string;
  version: string;
  publisher: string;
  license: string;
  private?: boolean;
  icon: string;
  repository: { type: string; url: string };
  bugs: { url: string };
  homepage: string;
  galleryBanner: { color: string; theme: string };
  categories: string[];
  keywords: string[];
  engines: { vscode: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
}

interface VsceFile {
  path: string;
  localPath?: string;
  contents?: Buffer | string;
}
interface Processor {
  onFile(file: VsceFile): Promise<VsceFile>;
}
interface VscePackage {
  readManifest(cwd: string): Promise<Manifest>;
  validateManifestForPackaging(manifest: Manifest): Manifest;
  createDefaultProcessors(manifest: Manifest, options: object): Processor[];
  processFiles(processors: Processor[], files: VsceFile[]): Promise<VsceFile[]>;
  ReadmeProcessor: new (manifest: Manifest, options: object) => Processor;
  listFiles(options: object): Promise<string[]>;
}

const vsce = createRequire(__filename)('@vscode/vsce/out/package') as VscePackage;

const pkg = (): Manifest => JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Manifest;

/** The README the package takes, as `npm run package` names it. */
function readmePath(): string {
  const m = /--readme-path (\S+)/.exec(pkg().scripts.package);
  assert.ok(m, 'npm run package names its README with --readme-path');
  return m[1];
}

/** Where a publisher's pictures and links would point: the repository's files at its head. */
function publishBases(m: Manifest): { baseImagesUrl: string; baseContentUrl: string } {
  const base = m.repository.url.replace(/\.git$/, '');
  return { baseImagesUrl: `${base}/raw/HEAD/`, baseContentUrl: `${base}/blob/HEAD/` };
}

/** The categories VS Code 1.100 knows (EXTENSION_CATEGORIES, src/vs/platform/extensions/common/extensions.ts in 1.100.3). */
const VSCODE_CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Extension Packs',
  'Education',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

/** The pictures the page shows, in order: `![alt](src)`. */
function pictures(text: string): Array<{ alt: string; src: string }> {
  return [...text.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({ alt: m[1], src: m[2] }));
}

describe('the package a marketplace reads', () => {
  it("passes vsce's manifest validation, which refuses an engine older than the API types and a publisher that is a display name", async () => {
    const m = await vsce.readManifest(REPO);
    assert.equal(m.publisher, 'knowledge-graph');
    // The check is live: vsce refuses these two, so its acceptance above means something.
    assert.throws(() => vsce.validateManifestForPackaging({ ...m, engines: { ...m.engines, vscode: '^1.99.0' } }), /@types\/vscode/);
    assert.throws(() => vsce.validateManifestForPackaging({ ...m, publisher: 'Knowledge Graph' }), /publisher/);
  });

  it('writes the links, the banner, the categories, the keywords, the licence, the icon and the page into extension.vsixmanifest', async () => {
    const m = await vsce.readManifest(REPO);
    const file = (p: string): VsceFile => ({ path: `extension/${p}`, localPath: path.join(REPO, p) });
    // The files the manifest names, as the package holds them; the bundle's bytes do not matter here.
    const out = await vsce.processFiles(
      vsce.createDefaultProcessors(m, { readmePath: readmePath(), rewriteRelativeLinks: true, ...publishBases(m) }),
      [
        file('package.json'),
        file('LICENSE'),
        file(m.icon),
        file(readmePath()),
        file('CHANGELOG.md'),
        { path: 'extension/dist/extension.js', contents: '' },
      ],
    );
    const xml = String(out.find((f) => f.path === 'extension.vsixmanifest')?.contents);
    const property = (id: string) =>
      new RegExp(`<Property Id="Microsoft\\.VisualStudio\\.Services\\.${id}" Value="([^"]*)"`).exec(xml)?.[1];
    assert.match(xml, new RegExp(`<Identity Language="en-US" Id="${m.name}" Version="${m.version}" Publisher="${m.publisher}"`));
    assert.equal(property('Links\\.Source'), m.repository.url);
    assert.equal(property('Links\\.Support'), m.bugs.url);
    assert.equal(property('Links\\.Learn'), m.homepage);
    assert.equal(property('Branding\\.Color'), m.galleryBanner.color);
    assert.equal(property('Branding\\.Theme'), m.galleryBanner.theme);
    assert.equal(/<Categories>([^<]*)<\/Categories>/.exec(xml)?.[1], m.categories.join(','));
    const tags = (/<Tags>([^<]*)<\/Tags>/.exec(xml)?.[1] ?? '').split(',');
    assert.deepEqual(
      m.keywords.filter((k) => !tags.includes(k)),
      [],
    );
    assert.match(xml, /<License>extension\/LICENSE\.txt<\/License>/);
    assert.match(xml, new RegExp(`<Icon>extension/${m.icon}</Icon>`));
    assert.match(xml, /<Asset Type="Microsoft\.VisualStudio\.Services\.Content\.Details" Path="extension\/readme\.md"/);
    // The page, as publishing rewrites it: every picture an https URL under the base (vsce refused
    // a picture that is not https, or is an SVG from an untrusted host, while writing it).
    const page = String(out.find((f) => f.path === 'extension/readme.md')?.contents);
    const shown = pictures(page);
    assert.ok(shown.length > 0, 'the page shows pictures');
    for (const p of shown) assert.ok(p.src.startsWith(publishBases(m).baseImagesUrl), p.src);
  });

  it("vsce's README check is live: an SVG or an http picture is refused", async () => {
    const m = await vsce.readManifest(REPO);
    const check = (text: string) =>
      new vsce.ReadmeProcessor(m, { readmePath: readmePath(), rewriteRelativeLinks: true, ...publishBases(m) }).onFile({
        path: `extension/${readmePath()}`,
        contents: Buffer.from(text),
      });
    await assert.rejects(check('# x\n\n![graph](media/graph.svg)\n'), /SVG/);
    await assert.rejects(check('# x\n\n![graph](http://example.invalid/a.png)\n'), /HTTPS/);
  });

  it('takes the marketplace README and leaves out the repository README and the screenshots (vsce lists the files)', async () => {
    const files = await vsce.listFiles({ cwd: REPO, readmePath: readmePath(), dependencies: false });
    assert.ok(files.includes(readmePath()), `${readmePath()} is packaged`);
    assert.ok(!files.includes('README.md'), "the repository's README.md stays out (it would clash with readme.md)");
    assert.deepEqual(
      files.filter((f) => f.startsWith('media/screenshots/')),
      [],
    );
    // The platform-specific packages take the same page.
    const native = fs.readFileSync(path.join(REPO, 'scripts', 'package-native.mjs'), 'utf8');
    assert.equal(/'--readme-path',\s*'([^']+)'/.exec(native)?.[1], readmePath());
  });

  it('names categories VS Code knows and at most 30 keywords (the Marketplace takes no more)', () => {
    const m = pkg();
    assert.ok(m.categories.length > 0);
    assert.deepEqual(
      m.categories.filter((c) => !VSCODE_CATEGORIES.includes(c)),
      [],
    );
    assert.ok(m.keywords.length > 0 && m.keywords.length <= 30, `${m.keywords.length} keywords`);
    assert.equal(new Set(m.keywords).size, m.keywords.length, 'no keyword twice');
  });

  it('keeps engines.vscode at the editor the e2e suite runs, and compiles against no newer API', () => {
    const m = pkg();
    const floor = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(m.engines.vscode);
    assert.ok(floor, `engines.vscode is a caret floor: ${m.engines.vscode}`);
    // code-server 4.X.Y is VS Code 1.X.Y.
    const cs = /^CS_VERSION=4\.(\d+)\.(\d+)/m.exec(fs.readFileSync(path.join(REPO, 'scripts', 'e2e', 'setup.sh'), 'utf8'));
    assert.ok(cs, 'scripts/e2e/setup.sh pins CS_VERSION');
    assert.equal(Number(cs[1]), Number(floor[2]), 'the e2e editor is the floor: what the floor promises is what is tested');
    const types = (
      JSON.parse(fs.readFileSync(path.join(REPO, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as { version: string }
    ).version;
    const [major, minor] = types.split('.').map(Number);
    assert.ok(major === Number(floor[1]) && minor <= Number(floor[2]), `@types/vscode ${types} is no newer than ${m.engines.vscode}`);
  });

  it('points repository, bugs and homepage at one place: the reserved .invalid placeholder only while the package is private', () => {
    const m = pkg();
    const base = m.repository.url.replace(/\.git$/, '');
    assert.ok(m.bugs.url.startsWith(`${base}/`), m.bugs.url);
    assert.ok(m.homepage.startsWith(base), m.homepage);
    const host = new URL(base).hostname;
    assert.equal(new URL(base).protocol, 'https:');
    // RFC 2606: .invalid never resolves, so the placeholder cannot be taken for a real repository;
    // npm refuses to publish a private package, so none leaves with it.
    if (host.endsWith('.invalid')) assert.equal(m.private, true, 'a placeholder repository with a package npm may publish');
    else assert.notEqual(m.private, true, 'a real repository: the package can be published');
    assert.equal(m.license, 'MIT');
    assert.match(fs.readFileSync(path.join(REPO, 'LICENSE'), 'utf8'), /^MIT License/);
  });

  it('leads its page with what the extension does, then the four screenshots, each a small checked-in PNG', () => {
    const text = fs.readFileSync(path.join(REPO, readmePath()), 'utf8');
    const shown = pictures(text);
    assert.deepEqual(
      shown.map((p) => p.src),
      ['lenses', 'god-nodes', 'explorer', 'path-finder'].map((n) => `media/screenshots/${n}.png`),
    );
    for (const p of shown) {
      assert.ok(p.alt.trim().length > 20, `${p.src} says what it shows: ${p.alt}`);
      const bytes = fs.readFileSync(path.join(REPO, p.src));
      assert.equal(bytes.subarray(1, 4).toString('ascii'), 'PNG', p.src);
      assert.ok(bytes.length <= 300 * 1024, `${p.src}: ${bytes.length} bytes`);
    }
    // What it does comes first: a heading, then prose, before the first picture; install after the pictures.
    const body = text.replace(/<!--[\s\S]*?-->/g, '').trimStart();
    assert.match(body, /^# Knowledge Graph\n/);
    const firstPicture = body.indexOf('![');
    assert.ok(body.slice(0, firstPicture).split(/\s+/).length > 100, 'a description before the first picture');
    assert.ok(body.indexOf('## Install') > body.lastIndexOf('!['), 'install after the pictures');
    // Its links point at docs the package ships (.vscodeignore takes docs/*.md).
    const links = [...body.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)].map((l) => l[1]).filter((l) => !/^\w+:/.test(l));
    for (const l of links) {
      assert.match(l, /^docs\/[\w-]+\.md(#[\w-]+)?$/, l);
      assert.ok(fs.existsSync(path.join(REPO, l.replace(/#.*$/, ''))), l);
    }
  });
});
