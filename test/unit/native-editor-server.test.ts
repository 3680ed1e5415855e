// What the build could share of a running TypeScript 7 language server, the editor's (issue 49,
// ADR 197), asked of the real thing: the pinned 7.1 binary started in its language-server mode
// (`tsc --lsp --stdio`, as the TypeScript 7 editor extension starts it). The server hands out an API
// session on `custom/initializeAPISession` and answers TypeScript 7's API on that pipe, where a
// snapshot made on the server's own serves a config given in a file-system layer without the server
// adopting it, and reads a file's text from the layer, not from the editor's unsaved buffer (the
// attach route's design); the synchronous client the native route speaks refuses the pipe. When a pinned release's client
// accepts it, the refusal test fails, and ADR 197's attach route can be built.

import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { editorServerUnshared, nativeBinary } from '../../src/graph/indexer/compiler/native-api';
import { FIXTURES } from '../helpers/fixtures';
import { initializeLanguageServer, openInEditor, Rpc } from '../helpers/json-rpc';

const binary = nativeBinary('7.1');
const root = path.join(FIXTURES, 'calls-callers');

describe('a TypeScript 7 language server as the editor runs it (ADR 197)', { skip: 'missing' in binary && binary.missing }, () => {
  let server: ChildProcessWithoutNullStreams;
  let lsp: Rpc;
  let session: { sessionId: string; pipe: string };

  before(async () => {
    server = spawn((binary as { exe: string }).exe, ['--lsp', '--stdio'], { cwd: root });
    lsp = new Rpc((b) => server.stdin.write(b), server.stdout);
    await initializeLanguageServer(lsp, root, 'fixture');
    session = (await lsp.request('custom/initializeAPISession', {})) as typeof session;
  });

  after(async () => {
    await lsp.request('shutdown');
    lsp.notify('exit');
    if (server.exitCode === null) await new Promise((r) => server.once('exit', r));
  });

  it('hands out an API session on a pipe, and answers TypeScript 7 API requests there', async () => {
    assert.ok(fs.statSync(session.pipe).isSocket(), `${session.pipe} is a socket`);
    const socket = net.createConnection(session.pipe);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    try {
      const api = new Rpc((b) => socket.write(b), socket);
      const init = (await api.request('initialize', null)) as { currentDirectory: string };
      assert.equal(typeof init.currentDirectory, 'string');
      // The language server's own snapshot, which only an API session attached to it can ask for.
      const snapshot = (await api.request('getCurrentLanguageServerSnapshot', {})) as { snapshot: number };
      assert.equal(typeof snapshot.snapshot, 'number');
    } finally {
      socket.destroy();
    }
  });

  it("opens a build's own config from a file-system layer on its snapshot, without adopting it (ADR 197's design)", async () => {
    // A session serves one connection (the first test's ended with it): this one is new.
    const second = (await lsp.request('custom/initializeAPISession', {})) as typeof session;
    const socket = net.createConnection(second.pipe);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    try {
      const api = new Rpc((b) => socket.write(b), socket);
      await api.request('initialize', null);
      type Projects = { snapshot: number; projects: { configFileName?: string }[] };
      const names = (s: Projects) => s.projects.map((p) => p.configFileName);
      const base = (await api.request('getCurrentLanguageServerSnapshot', {})) as Projects;
      // The config exists only in the layer: the server serves it as the build serves its own.
      const served = `${root.split(path.sep).join('/')}/tsconfig.kg-native.json`;
      assert.equal(fs.existsSync(served), false);
      const text = JSON.stringify({ compilerOptions: { strict: true }, files: ['app.ts'] });
      const changes = { fileSystem: { kind: 'layer', files: { [served]: text } }, openProjects: [served], ensurePrograms: true };
      const layered = (await api.request('updateSnapshot', { snapshot: base.snapshot, changes })) as Projects;
      assert.ok(names(layered).includes(served), `the layered snapshot holds ${served}: ${names(layered).join(', ')}`);
      const after = (await api.request('getCurrentLanguageServerSnapshot', {})) as Projects;
      assert.ok(!names(after).includes(served), "the language server's own snapshot does not adopt it");
    } finally {
      socket.destroy();
    }
  });

  it("answers from the layer's texts, not the editor's unsaved buffer (the graph stays the build's)", async () => {
    const app = path.join(root, 'app.ts');
    // The editor holds app.ts with an unsaved syntax error; the pull of its diagnostics orders it before what follows.
    const uri = openInEditor(lsp, app, 'export const = ;\n');
    await lsp.request('textDocument/diagnostic', { textDocument: { uri } });
    const fresh = (await lsp.request('custom/initializeAPISession', {})) as typeof session;
    const socket = net.createConnection(fresh.pipe);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    try {
      const api = new Rpc((b) => socket.write(b), socket);
      await api.request('initialize', null);
      type Projects = { snapshot: number; projects: { configFileName?: string; handle: number }[] };
      const syntax = async (s: Projects, config: string) => {
        const project = s.projects.find((p) => p.configFileName === config);
        assert.ok(project, `the snapshot holds ${config}`);
        const found = await api.request('getSyntacticDiagnostics', { snapshot: s.snapshot, project: project.handle, files: [app] });
        return ((found ?? []) as unknown[]).length;
      };
      const base = (await api.request('getCurrentLanguageServerSnapshot', {})) as Projects;
      const dir = root.split(path.sep).join('/');
      assert.ok((await syntax(base, `${dir}/tsconfig.json`)) > 0, "the server's own project reads the editor's buffer");
      const served = `${dir}/tsconfig.kg-native.json`;
      const files = {
        [served]: JSON.stringify({ compilerOptions: { strict: true }, files: ['app.ts'] }),
        [app]: fs.readFileSync(app, 'utf8'),
      };
      const changes = { fileSystem: { kind: 'layer', files }, openProjects: [served], ensurePrograms: true };
      const layered = (await api.request('updateSnapshot', { snapshot: base.snapshot, changes })) as Projects;
      assert.equal(await syntax(layered, served), 0, "the build's project reads the layer's text of app.ts");
    } finally {
      socket.destroy();
      lsp.notify('textDocument/didClose', { textDocument: { uri } });
    }
  });

  it('is refused by the synchronous client the native route speaks, which says why', async () => {
    const live = (await lsp.request('custom/initializeAPISession', {})) as typeof session;
    const why = editorServerUnshared('7.1', live.pipe);
    assert.match(
      why,
      /^TypeScript 7\.1\.\S+'s synchronous API cannot attach to a language server \(Socket connections are not yet supported in the sync client\)$/,
    );
    // Asked without a pipe, as a build handed none would ask, the answer is the same.
    assert.equal(editorServerUnshared('7.1'), why);
  });
});
