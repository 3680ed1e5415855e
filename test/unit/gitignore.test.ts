// gitignore(5) semantics, case by case.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matcherFor, parseGitignore } from '../../src/graph/indexer/files/gitignore';

function ignored(files: Record<string, string>, rel: string, isDir = false): boolean {
  const rules = new Map(Object.entries(files).map(([dir, text]) => [dir, parseGitignore(text, dir)]));
  return matcherFor(rules, rel, isDir);
}

describe('gitignore', () => {
  it('matches basenames at any depth when the pattern has no slash', () => {
    assert.ok(ignored({ '': '*.log' }, 'a/b/c.log'));
    assert.ok(!ignored({ '': '*.log' }, 'a/b/c.log.txt'));
  });
  it('anchors patterns that contain a slash', () => {
    assert.ok(ignored({ '': '/build' }, 'build', true));
    assert.ok(!ignored({ '': '/build' }, 'src/build', true));
    assert.ok(ignored({ '': 'docs/*.md' }, 'docs/a.md'));
    assert.ok(!ignored({ '': 'docs/*.md' }, 'x/docs/a.md'));
  });
  it('applies directory-only patterns to directories only', () => {
    assert.ok(ignored({ '': 'out/' }, 'out', true));
    assert.ok(!ignored({ '': 'out/' }, 'out', false));
  });
  it('lets later rules and negations win', () => {
    assert.ok(!ignored({ '': '*.ts\n!keep.ts' }, 'keep.ts'));
    assert.ok(ignored({ '': '!keep.ts\n*.ts' }, 'keep.ts'));
  });
  it('handles ** in all positions', () => {
    assert.ok(ignored({ '': '**/gen' }, 'a/b/gen', true));
    assert.ok(ignored({ '': '**/gen' }, 'gen', true));
    assert.ok(ignored({ '': 'a/**/z.ts' }, 'a/z.ts'));
    assert.ok(ignored({ '': 'a/**/z.ts' }, 'a/b/c/z.ts'));
    assert.ok(ignored({ '': 'a/**' }, 'a/b/c.ts'));
    assert.ok(!ignored({ '': 'a/**' }, 'a', true));
  });
  it('scopes nested .gitignore files to their directory and lets them override', () => {
    assert.ok(ignored({ pkg: 'x.ts' }, 'pkg/x.ts'));
    assert.ok(!ignored({ pkg: 'x.ts' }, 'x.ts'));
    assert.ok(!ignored({ '': '*.ts', pkg: '!x.ts' }, 'pkg/x.ts'));
    assert.ok(ignored({ pkg: '/y.ts' }, 'pkg/y.ts'));
    assert.ok(!ignored({ pkg: '/y.ts' }, 'pkg/sub/y.ts'));
  });
  it('reads comments, escapes, trailing spaces and character classes', () => {
    assert.ok(!ignored({ '': '# comment' }, '# comment'));
    assert.ok(ignored({ '': '\\#hash' }, '#hash'));
    assert.ok(ignored({ '': 'trail   ' }, 'trail'));
    assert.ok(ignored({ '': 'file[0-9].ts' }, 'file7.ts'));
    assert.ok(!ignored({ '': 'file[!0-9].ts' }, 'file7.ts'));
    assert.ok(ignored({ '': 'a?c' }, 'abc'));
    assert.ok(!ignored({ '': 'a?c' }, 'a/c'));
  });
});
