// The helpers untrusted text goes through on its way into a message (ADR 96).

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { previewJson, redactCredentials, visible } from '../../src/graph';

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

describe('redactCredentials', () => {
  it("replaces every password a connection string holds, and nothing else (issue 55's item 20)", () => {
    const cases: Array<[string, string]> = [
      ['postgresql://u:secret@host/db', 'postgresql://u:***@host/db'],
      [
        'to postgresql://u:pa@ss@h/db?password=p:w&sslmode=require: refused',
        'to postgresql://u:***@h/db?password=***&sslmode=require: refused',
      ],
      ["host=a password='a b' user=u", 'host=a password=*** user=u'],
      ['postgres://u@h/db?PASSWD=zz&sslpassword=k', 'postgres://u@h/db?PASSWD=***&sslpassword=***'],
      ['postgresql://u@h/db?password=x: connect ECONNREFUSED', 'postgresql://u@h/db?password=***: connect ECONNREFUSED'],
      ['no secrets here: a:b@c, postgresql://u@h/db', 'no secrets here: a:b@c, postgresql://u@h/db'],
    ];
    for (const [text, redacted] of cases) assert.equal(redactCredentials(text), redacted, text);
  });
});
