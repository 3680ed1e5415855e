// The editor's language-model tools are kg mcp's query tools: package.json's
// `contributes.languageModelTools` holds exactly what src/agent/tool-definitions.ts derives from the query
// catalogue (a catalogue change that is not carried into package.json fails here, and the message
// says how to regenerate it), and every tool's schemas are JSON Schema a validator compiles.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Ajv from 'ajv';
import { languageModelToolContributions, TOOLS } from '../../src/agent/tool-definitions';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: unknown[] };
};

describe('kg mcp tools', () => {
  it('package.json contributes exactly the derived language-model tools', () => {
    assert.deepEqual(
      pkg.contributes.languageModelTools,
      languageModelToolContributions(),
      'package.json is out of date: set contributes.languageModelTools to languageModelToolContributions() (src/agent/tool-definitions.ts)',
    );
  });

  it('every tool has an object input schema and an output schema that compile, and the catalogue questions all appear', () => {
    const ajv = new Ajv({ strict: false });
    for (const t of TOOLS) {
      assert.equal(t.inputSchema.type, 'object');
      ajv.compile(t.inputSchema);
      ajv.compile(t.outputSchema);
    }
    assert.deepEqual(
      TOOLS.map((t) => t.name),
      ['symbol', 'callers', 'affected', 'impact', 'neighbors', 'path', 'god-nodes', 'find', 'why', 'unused', 'check', 'build'],
    );
  });
});
