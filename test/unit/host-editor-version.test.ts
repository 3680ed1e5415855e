// Which editors are asked to take kg mcp as an MCP server (ADR 154): VS Code 1.101 and later, read
// from the version string the editor reports; an unreadable version is tried, since the
// registration guards itself.

import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { takesMcpServerDefinitions } from '../../src/host/editor-version';

describe('takesMcpServerDefinitions', () => {
  it('says no to VS Code 1.100 and earlier, whatever the patch or suffix', () => {
    for (const v of ['1.100.0', '1.100.3', '1.100.99-insider', '1.99.5', '1.9.200', '0.200.0'])
      assert.equal(takesMcpServerDefinitions(v), false, v);
  });

  it('says yes from 1.101, including insiders and a later major', () => {
    for (const v of ['1.101.0', '1.101.0-insider', '1.102.1', '1.117.0', '2.0.0', ' 1.110.2 '])
      assert.equal(takesMcpServerDefinitions(v), true, v);
  });

  it('tries an editor whose version it cannot read', () => {
    for (const v of ['', 'dev', '1.101']) assert.equal(takesMcpServerDefinitions(v), true, v);
  });
});
