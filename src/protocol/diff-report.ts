// The JSON `kg diff` prints (docs/cli.md, "kg diff").
// Sender: `kg diff` (src/cli/diff.ts), on its stdout, one object.
// Receiver: the editor's Compare view (src/host/compare.ts), which runs the bundled `kg diff`.
// The receiver reads it with parseDiffReport: the version checked, then the JSON Schema below,
// which names every field the view reads, compiled once by Ajv (as the webview's messages are,
// ./messages-schema.ts), so output of another version or that is no report is a message naming
// what is wrong, never a half-read report shown as a diff. Fields the view does not read are
// left unchecked: a report may carry more than this reader knows.

import Ajv, { type ErrorObject } from 'ajv';
import { DIFF_REPORT_VERSION, parseVersionedJson, type DiffReport } from '../graph';

const STRING = { type: 'string' } as const;
const COUNT = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const BOOLEAN = { type: 'boolean' } as const;
/** True or absent: a consumer's `gone` and `updated`. */
const FLAG = { const: true } as const;

function obj(required: Record<string, object>, optional: Record<string, object> = {}): object {
  return { type: 'object', properties: { ...required, ...optional }, required: Object.keys(required) };
}
const list = (items: object) => ({ type: 'array', items }) as const;

const PLACE = { file: STRING, line: COUNT, column: COUNT };
const SYMBOL_REF = obj({ id: STRING, label: STRING, ...PLACE });
const CONSUMER = obj({ id: STRING, confidence: STRING, ...PLACE }, { gone: FLAG, updated: FLAG });
const CONSUMERS = { proven: list(CONSUMER), guessed: list(CONSUMER) };

/** What the Compare view reads of a report, field by field. */
const DIFF_REPORT_SCHEMA = obj({
  base: obj({ spec: STRING }, { commit: STRING }),
  head: obj({ spec: STRING }),
  problems: list(STRING),
  summary: obj({ breaking: obj({ symbols: COUNT, provenConsumers: COUNT, guessedConsumers: COUNT }) }),
  symbols: obj({
    removed: list(obj({ label: STRING, ...PLACE, ...CONSUMERS })),
    renamed: list(obj({ from: SYMBOL_REF, to: SYMBOL_REF, matchedBy: STRING, ...CONSUMERS })),
    signatureChanged: list(obj({ label: STRING, file: STRING, now: obj({ line: COUNT, column: COUNT }), ...CONSUMERS })),
    added: list(obj({ label: STRING, ...PLACE, exported: BOOLEAN })),
  }),
});

let compiled: ReturnType<Ajv['compile']> | undefined;

/** `kg diff`'s stdout as a report, or what keeps it from being one this reader knows. */
export function parseDiffReport(text: string): { report: DiffReport } | { problem: string } {
  const opened = parseVersionedJson(text, 'reportVersion', DIFF_REPORT_VERSION, {
    notJson: 'kg diff printed no JSON',
    notObject: 'kg diff printed no report',
    version: (found) => `kg diff printed a report of version ${String(found)}; this editor reads version ${DIFF_REPORT_VERSION}`,
  });
  if ('problem' in opened) return opened;
  // `verbose` puts the failing schema in each error, which says what the field should have been.
  compiled ??= new Ajv({ strict: true, allErrors: false, verbose: true }).compile(DIFF_REPORT_SCHEMA);
  return compiled(opened.value)
    ? { report: opened.value as unknown as DiffReport }
    : { problem: `kg diff printed a report this editor cannot read: ${fault(compiled.errors?.[0])}` };
}

/** Ajv's first error as the field it names, written as a path from `report`, and what it is not. */
function fault(e: ErrorObject | undefined): string {
  if (e === undefined) return 'report does not match its schema';
  const steps = e.instancePath.split('/').slice(1);
  // A missing field is named by its own path, and said to be not what its schema asks for.
  const missing = e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : undefined;
  if (missing !== undefined) steps.push(missing);
  const at = steps.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`)).join('');
  const parent = e.parentSchema as { properties?: Record<string, object> } | undefined;
  const expected = missing === undefined ? parent : parent?.properties?.[missing];
  return `report${at} ${notA(expected)}`;
}

/** What a value that fails `schema` (one built above) is not. */
function notA(schema: { type?: string; const?: unknown } | undefined): string {
  if (schema?.const === true) return 'is neither true nor absent';
  const nouns: Record<string, string> = {
    object: 'an object',
    array: 'a list',
    string: 'a string',
    integer: 'a count',
    boolean: 'a boolean',
  };
  return `is not ${nouns[schema?.type ?? ''] ?? 'what the report should hold'}`;
}
