// A .gitattributes change makes a built graph stale (ADR 98): the vendored and generated rules
// shape the build, so kg status counts the attribute files among its inputs. Real kg processes.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fixtures';

describe('vendored files and staleness', () => {
  after(removeTempDirs);

  it('a .gitattributes change makes the graph stale', () => {
    const root = tempDir();
    writeTree(root, {
      'src/app.ts': 'export const a = 1;',
      'vendor/x.js': 'export const x = 1;',
      '.gitattributes': '*.pb.ts linguist-generated\n',
    });
    const kg = path.resolve('dist/cli.js');
    const env = { ...process.env, KG_SERVER: 'off' };
    execFileSync(process.execPath, [kg, 'build', '--apply', '--root', root], { env, stdio: 'ignore' });
    const status = () =>
      JSON.parse(execFileSync(process.execPath, [kg, 'status', '--root', root], { env, encoding: 'utf8' })) as {
        stale: boolean;
        changedFiles?: string[];
      };
    assert.equal(status().stale, false);
    fs.appendFileSync(path.join(root, '.gitattributes'), '*.proto linguist-generated\n');
    assert.equal(status().stale, true);
  });
});
