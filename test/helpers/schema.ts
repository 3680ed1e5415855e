// Every test that writes or builds a graph validates it against the shipped JSON Schema.

import Ajv from 'ajv';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const schemaPath = path.join(__dirname, '..', '..', 'schema', 'graph.schema.json');
const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));

export function assertValidGraph(graph: unknown): void {
  const ok = validate(graph);
  assert.ok(ok, `graph does not match schema/graph.schema.json:\n${JSON.stringify(validate.errors?.slice(0, 10), null, 2)}`);
}
