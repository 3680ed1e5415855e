// Real packages for the tests of calls into packages (ADR 107) and of the store's join across
// repositories (ADR 122): built with the bundled compiler (TypeScript 6.0, in-process, as `tsc -p`
// would), packed with `npm pack`, installed offline with `npm install <tarball>`.

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { writeTree } from './fixtures';

export function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Builds a project with the bundled compiler, as `tsc -p` would: every error fails the test. */
export function tsc(dir: string, config = 'tsconfig.json'): void {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  });
  assert.ok(parsed && parsed.errors.length === 0, `${dir}/${config} parses`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const result = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  assert.deepEqual(
    errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    [],
    `${dir} builds`,
  );
}

/** `npm pack` into `dest`; the tarball's absolute path. */
export function pack(dir: string, dest: string): string {
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], dir);
  const [{ filename }] = JSON.parse(out) as Array<{ filename: string }>;
  return path.join(dest, filename);
}

/** A source file with a function, a class, a method calling the function, and a static factory. */
export const GREETER_SRC = `export function greet(name: string): string {
  return 'hello ' + name;
}

export class Greeter {
  constructor(private readonly who: string) {}
  hello(): string {
    return greet(this.who);
  }
  static create(who: string): Greeter {
    return new Greeter(who);
  }
}
`;

/**
 * A package that ships its sources and `dist/*.d.ts` with declaration maps, under `prefix`
 * (`packages/greeter/` in a workspace): run `tsc` on its folder to emit them.
 */
export function mappedPackage(prefix: string, name: string, version: string): Record<string, string> {
  return {
    [`${prefix}package.json`]: JSON.stringify({ name, version, types: 'dist/index.d.ts', files: ['dist', 'src'] }),
    [`${prefix}tsconfig.json`]: JSON.stringify({
      compilerOptions: { strict: true, declaration: true, declarationMap: true, emitDeclarationOnly: true, outDir: 'dist', rootDir: 'src' },
    }),
    [`${prefix}src/greeter.ts`]: GREETER_SRC,
    [`${prefix}src/index.ts`]: "export { greet, Greeter } from './greeter';\n",
  };
}

/**
 * Two repositories under `work`: `acme`, a workspace (`acme-monorepo`) whose packages/greeter
 * publishes @acme/greeter 1.2.0 with declaration maps (built and packed here), plus `extra` files;
 * and `consumer` (`consumer-app`), which installs the tarball and calls greet from main (once, with
 * Greeter.create(…).hello()) and from twice (two calls).
 */
export function greeterRepositories(work: string, extra: Record<string, string> = {}): { acme: string; consumer: string } {
  const tarballs = path.join(work, 'tarballs');
  fs.mkdirSync(tarballs, { recursive: true });
  const acme = path.join(work, 'acme');
  writeTree(acme, {
    '.gitignore': 'dist/\nnode_modules/\n',
    'package.json': JSON.stringify({ name: 'acme-monorepo', private: true, workspaces: ['packages/*'] }),
    ...mappedPackage('packages/greeter/', '@acme/greeter', '1.2.0'),
    ...extra,
  });
  tsc(path.join(acme, 'packages/greeter'));
  const ball = pack(path.join(acme, 'packages/greeter'), tarballs);
  const consumer = path.join(work, 'consumer');
  writeTree(consumer, {
    'package.json': JSON.stringify({ name: 'consumer-app', version: '0.0.1', private: true }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022' }, include: ['src'] }),
    'src/main.ts': [
      "import { greet, Greeter } from '@acme/greeter';",
      '',
      'export function main(): string {',
      "  return greet('b') + Greeter.create('a').hello();",
      '}',
      '',
      'export function twice(): string {',
      "  return greet('c') + greet('d');",
      '}',
      '',
    ].join('\n'),
  });
  run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ball], consumer);
  return { acme, consumer };
}
