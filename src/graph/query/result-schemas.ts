// The JSON Schemas of the catalogue's answers (catalogue.ts): what a face may promise its readers
// — an MCP tool's output schema, a test that validates what `kg` prints. Each mirrors the type in
// shapes.ts (or node-details.ts, file-symbols.ts) it describes; test/unit/catalogue.test.ts
// validates real answers against them, so a shape that drifts from its schema fails there.
// Draft-07 keywords only, so every validator and every MCP client reads them.

export type JsonSchema = { readonly [key: string]: unknown };

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const strings = { type: 'array', items: str } as const;
const confidence = { enum: ['EXACT', 'CANDIDATE', 'UNRESOLVED'] } as const;

/** An object with these required properties (and these optional ones), nothing else. */
function obj(required: Record<string, JsonSchema>, optional: Record<string, JsonSchema> = {}): JsonSchema {
  return { type: 'object', properties: { ...required, ...optional }, required: Object.keys(required), additionalProperties: false };
}
const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

const evidence = obj({ file: str, line: int, column: int });
const edgeRef = obj({ source: str, target: str, relation: str, confidence });
const callSite = obj({ id: str, confidence }, { evidence, name: str, reason: str });
const whyEntry = obj({ id: str, label: str }, { file: str, line: int, column: int });
const whyNote = obj({ id: str, label: str, area: str, stamp: str, text: str, sitsOn: bool }, { file: str, line: int, column: int });
const graphNode: JsonSchema = {
  type: 'object',
  properties: { id: str, kind: str, label: str, sourceFile: str, line: int, column: int },
  required: ['id', 'kind', 'label'],
};

/** Every answer's common fields: `available: true` first, `evidenceClass`, and staleness when known. */
function answer(fields: Record<string, JsonSchema>, optional: Record<string, JsonSchema> = {}): JsonSchema {
  return obj(
    { available: { const: true }, ...fields, evidenceClass: { const: 'GRAPH_DERIVED' } },
    { ...optional, stale: bool, changedFiles: strings },
  );
}

/** A degrade: the question could not be answered, and why (docs/adr/0021-unknown-ids-and-bad-graphs-are-degrades.md). */
export const UNAVAILABLE_SCHEMA: JsonSchema = obj(
  { available: { const: false }, reason: str, code: str, evidenceClass: { const: 'GRAPH_DERIVED' } },
  { suggestions: strings, stale: bool, changedFiles: strings },
);

const why = { notes: arr(whyNote), records: arr(whyEntry), cited: arr(whyEntry) };
const whyAnswer = answer({ id: str, ...why, fileNotes: arr(whyNote), fileRecords: arr(whyEntry) });
/** Callers that reach a member through what it implements or overrides, per member (ADR 151). */
const dispatched = arr(obj({ via: str, relation: str, callers: strings }));
/** What the graph cannot see of a node's referrers (ADR 153). */
const counted = { type: 'object', additionalProperties: int } as const;
const holes = {
  unanalysed: obj({ file: str, importers: strings, total: counted, summary: str, reason: str }),
  unresolvedNamed: obj({ name: str, sites: int, reasons: counted, summary: str }),
};
const optionalOf = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });

export const RESULT_SCHEMAS = {
  callers: answer({ callers: strings, candidates: strings }, { dispatched, ...holes }),
  affected: answer({ consumers: strings, breaks: bool, candidates: strings }, holes),
  impact: answer(
    { callers: strings, consumers: strings, blastRadius: int, candidates: strings, candidateRadius: int },
    { dispatched, ...holes },
  ),
  neighbors: answer({ nodes: strings, excludedHubs: strings, hubThreshold: int, edges: arr(edgeRef) }),
  path: answer({ path: strings, edges: arr(edgeRef), directed: bool }, { note: str }),
  'god-nodes': answer({ godNodes: arr(obj({ id: str, degree: int })) }),
  query: answer({ matches: strings, truncated: bool }),
  why: whyAnswer,
  symbol: answer(
    {
      id: str,
      kind: str,
      label: str,
      degree: int,
      callers: arr(callSite),
      candidates: arr(callSite),
      callees: arr(callSite),
      calleeCandidates: arr(callSite),
      unresolved: arr(callSite),
      totals: obj({ callers: int, candidates: int, callees: int, calleeCandidates: int, unresolved: int }),
      ...why,
    },
    { location: str, exported: bool, signatureHash: str },
  ),
  unused: answer({
    path: str,
    unused: arr(obj({ id: str, kind: str, label: str }, { location: str })),
    possiblyUsed: arr(
      obj(
        {
          id: str,
          kind: str,
          label: str,
          reasons: arr(
            obj(
              {
                reason: {
                  enum: [
                    'candidate',
                    'unresolved-named',
                    'unanalysed',
                    'dynamic-access',
                    'entry-unplaced',
                    'alias',
                    'module-object',
                    'object-value',
                  ],
                },
                summary: str,
              },
              { via: strings },
            ),
          ),
        },
        { location: str },
      ),
    ),
    totals: obj({ symbols: int, entry: int, reached: int, unused: int, possiblyUsed: int }),
    notes: strings,
  }),
  // The editor's answers travel between threads, where `undefined` stays undefined; in JSON it is null.
  counts: arr(
    optionalOf(
      obj(
        { callers: int, candidates: int },
        { through: obj({ callers: int, via: strings }), referrers: int, unanalysed: str, unanalysedReason: str, unresolvedNamed: str },
      ),
    ),
  ),
  fileSymbols: arr(obj({ id: str, kind: str, label: str, line: int, column: int })),
  details: optionalOf(
    obj({
      node: graphNode,
      degree: int,
      callers: arr(callSite),
      candidates: arr(callSite),
      dispatched: arr(obj({ via: str, relation: str, callers: arr(callSite) })),
      callees: arr(callSite),
      citedBy: strings,
    }),
  ),
  nodes: arr(optionalOf(graphNode)),
  search: obj({ matches: arr(obj({ node: graphNode, degree: int })), total: int }),
  neighbourGroups: arr(obj({ relation: str, direction: { enum: ['in', 'out'] }, items: arr(callSite), total: int, proven: int })),
  whyAt: optionalOf(obj({ id: str, answer: { anyOf: [whyAnswer, UNAVAILABLE_SCHEMA] } })),
} as const satisfies Record<string, JsonSchema>;
