// The in-host test entry: VS Code loads this file inside the real extension host (through
// code-server's `payload`, or @vscode/test-electron's extensionTestsPath) and awaits run().
// One suite, two launchers: test/e2e/run.ts (code-server, CI) and test/e2e/electron.ts (desktop).

import * as path from 'node:path';
import Mocha from 'mocha';

// One line per test through console.log, which the extension host forwards to the launcher,
// and a closing "N passed, N failed" line.
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    runner.on('pass', (t) => {
      passed++;
      console.log(`ok - ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on('fail', (t, err: Error) => {
      failed++;
      console.log(`not ok - ${t.fullTitle()}\n${err?.stack ?? String(err)}`);
    });
    runner.on('pending', (t) => {
      failed++; // a skipped test is not a passed one (the suite has none; this keeps it so)
      console.log(`not ok - ${t.fullTitle()} (skipped)`);
    });
    runner.once('end', () => console.log(`in-host: ${passed} passed, ${failed} failed`));
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 120_000, color: false, reporter: LineReporter, forbidOnly: true, forbidPending: true });
  mocha.addFile(path.join(__dirname, 'suite.js'));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} in-host test(s) failed`)) : resolve()));
  });
}
