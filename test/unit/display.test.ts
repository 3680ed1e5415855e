// The helpers untrusted text goes through on its way into a message (ADR 96).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { previewJson, visible } from '../../src/graph';

describe('previewJson', () => {
  it('renders a value 100,000 deep without recursing into it', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    assert.equal(previewJson(deep), '[[[[[…]]]]]');
  });
  it('stops at max characters, however wide the value', () => {
    const wide = Array.from({ length: 1_000_000 }, (_, i) => i);
    const s = previewJson(wide, 40);
    assert.equal(s.length, 41);
    assert.ok(s.startsWith('[0,1,2,3') && s.endsWith('…'));
  });
  it('is JSON for small values, with control characters escaped in strings', () => {
    assert.equal(previewJson({ a: [1, 'x\u001b'], b: null, c: true }), '{"a":[1,"x\\u001b"],"b":null,"c":true}');
    assert.equal(previewJson(undefined), 'undefined');
  });
});

describe('visible', () => {
  it('writes control characters as escapes and leaves other text alone', () => {
    assert.equal(visible('src/\u001b[2Kpasswd.ts'), 'src/\\u001b[2Kpasswd.ts');
    assert.equal(visible('a\nb\r\u0007\u009b\u202e\u2028'), 'a\\u000ab\\u000d\\u0007\\u009b\\u202e\\u2028');
    assert.equal(visible('ünïcode · é 👍'), 'ünïcode · é 👍');
  });
});
