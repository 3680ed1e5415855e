// The doctor: six invariants over graph.json (ADR 53). A pure function over a
// parsed graph — no file system, no compiler — so the CLI, the extension and the build's
// generation check all run exactly the same rules. It never modifies what it inspects.
//
// "Declared" means (ADR 53): a node exists *and* something declares it. A module is derived
// from the file set; a file is declared by the module that contains it; a symbol by the
// `contains` edge from its file or class; a decision record or doc concept by its source file.

import { GraphError } from '../errors';
import { previewJson, visible } from '../io/display';
import { schemaViolations, type SchemaViolations } from '../io/load';
import { escapeIdPart, fileOfId, packageSymbolId, parseId as parseIdText, rationaleId, type ParsedId } from '../ids';
import {
  CONFIDENCES,
  EVIDENCE_CLASSES,
  EXACT_PROVENANCES,
  PACKAGE_PREFIX,
  PROVENANCE_OF_CLASS,
  RESOLUTION_CLASSES,
  PROVENANCES,
  RELATIONS,
  RESOLUTIONS,
  UNRESOLVED_PREFIX,
  UNRESOLVED_REASONS,
} from '../model';

export const DOCTOR_RULES = [
  'exact_edge_without_source',
  'exact_edge_without_target',
  'missing_evidence_file',
  'duplicate_stable_key',
  'unknown_confidence',
  'invalid_repository_ownership',
] as const;
export type DoctorRule = (typeof DOCTOR_RULES)[number];

const DOCTOR_RULE_DESCRIPTIONS: Readonly<Record<DoctorRule, string>> = {
  exact_edge_without_source: 'an EXACT edge whose source no file declares',
  exact_edge_without_target: 'an EXACT edge whose target no file declares',
  missing_evidence_file: 'an edge whose evidence file is not a file node',
  duplicate_stable_key: 'one stable key (node id) on two nodes',
  unknown_confidence: 'a confidence, provenance or other value outside the vocabulary, or EXACT backed by non-exact provenance',
  invalid_repository_ownership: 'a node or edge whose owning file does not match its id, its containment or its evidence',
};

/**
 * What a query's load checks of the doctor, and what it leaves to the doctor (ADR 97): said by
 * `kg --help`, every query's help, `kg doctor --help` and the editor's Run Doctor.
 */
export const LOADER_CHECKS =
  'Queries refuse a graph that breaks its schema (doctor rule 5 included), names one id on two nodes or has an edge to no node; ' +
  'they do not check ownership or evidence files (rules 3 and 6): kg doctor does, and every build does before it replaces graph.json.';

/** At most this many samples are listed under a failing rule. */
export const DOCTOR_SAMPLE_LIMIT = 20;

interface DoctorSample {
  /** `node` or `edge`: which list of graph.json the row is in. */
  table: 'node' | 'edge';
  /** The node id, or the edge's `source --relation--> target`. */
  key: string;
  /** What breaks the rule. */
  detail: string;
}

interface DoctorRuleResult {
  rule: DoctorRule;
  description: string;
  status: 'PASS' | 'FAIL';
  count: number;
  samples: DoctorSample[];
}

export interface DoctorReport {
  ok: boolean;
  nodes: number;
  edges: number;
  rules: DoctorRuleResult[];
  /** The schema's verdict (examineGraph): how many places break it, the first 20 described. */
  schema?: SchemaViolations;
}

export type Row = Record<string, unknown>;

// The vocabularies as sets: the doctor asks each of them once per edge.
const IN_RELATIONS: ReadonlySet<unknown> = new Set(RELATIONS);
const IN_CONFIDENCES: ReadonlySet<unknown> = new Set(CONFIDENCES);
const IN_PROVENANCES: ReadonlySet<unknown> = new Set(PROVENANCES);
const IN_RESOLUTIONS: ReadonlySet<unknown> = new Set(RESOLUTIONS);
const IN_EVIDENCE_CLASSES: ReadonlySet<unknown> = new Set(EVIDENCE_CLASSES);
const IN_UNRESOLVED_REASONS: ReadonlySet<unknown> = new Set(UNRESOLVED_REASONS);
const IN_RESOLUTION_CLASSES: ReadonlySet<unknown> = new Set(RESOLUTION_CLASSES);
const EXACT: ReadonlySet<string> = new Set(EXACT_PROVENANCES);

export const isRow = (x: unknown): x is Row => typeof x === 'object' && x !== null && !Array.isArray(x);
export const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

function edgeKeyText(e: Row): string {
  return `${String(e.source)} --${String(e.relation)}--> ${String(e.target)}`;
}

/** The canonical form of an id: its parts re-escaped. Two ids with one canonical form are one key. */
function canonicalId(p: ParsedId): string {
  switch (p.prefix) {
    case 'mod':
      return 'mod:' + escapeIdPart(p.dir === '' ? '.' : p.dir);
    case 'file':
      return 'file:' + escapeIdPart(p.path);
    case 'sym':
      return 'sym:' + escapeIdPart(p.path) + '#' + escapeIdPart(p.name);
    case 'adr':
      return 'adr:' + String(p.num);
    case 'doc':
      return 'doc:' + escapeIdPart(p.path) + '#' + escapeIdPart(p.slug) + '~' + String(p.index);
    case 'rationale':
      return rationaleId(p.path, p.area, p.stamp, p.index);
    case 'unresolved':
      return UNRESOLVED_PREFIX + escapeIdPart(p.name);
    case 'pkg':
      return packageSymbolId(p.pkg, p.version, p.path, p.name);
  }
}

function dirOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

/** The file a node is owned by: its `sourceFile`, or the path in its id. */
function ownerFile(node: Row | undefined, id: string, parseId: (id: string) => ParsedId | undefined): string | undefined {
  const sf = node ? str(node.sourceFile) : undefined;
  if (sf !== undefined) return sf;
  const p = parseId(id);
  return p ? fileOfId(id) : undefined;
}

/** Where the rules put what they find. */
export interface Findings {
  /** `key` may be given as a function: an edge's key text is made only for a finding. */
  add(rule: DoctorRule, table: 'node' | 'edge', key: string | (() => string), detail: string): void;
}

class Collector implements Findings {
  readonly results = new Map<DoctorRule, { count: number; samples: DoctorSample[] }>();
  constructor() {
    for (const r of DOCTOR_RULES) this.results.set(r, { count: 0, samples: [] });
  }
  add(rule: DoctorRule, table: 'node' | 'edge', key: string | (() => string), detail: string): void {
    const r = this.results.get(rule) as { count: number; samples: DoctorSample[] };
    r.count++;
    if (r.samples.length < DOCTOR_SAMPLE_LIMIT) r.samples.push({ table, key: typeof key === 'string' ? key : key(), detail });
  }
}

/**
 * The doctor's whole verdict on a parsed graph.json (ADR 97): the schema check every query makes,
 * and the six rules beside it, run on anything that has node and edge arrays however badly it
 * breaks the schema. Throws GRAPH_INVALID only when the document is not a graph at all (not an
 * object, no node or edge list); everything else is a finding. `ok` only when both pass.
 */
export function examineGraph(graph: unknown): DoctorReport {
  const schema = schemaViolations(graph);
  const report = runDoctor(graph);
  return { ...report, ok: report.ok && schema.count === 0, schema };
}

/** The report examineGraph gives a graph that passes everything, with its two counts. */
export function passingReport(nodes: number, edges: number): DoctorReport {
  const rules: DoctorRuleResult[] = DOCTOR_RULES.map((rule) => ({
    rule,
    description: DOCTOR_RULE_DESCRIPTIONS[rule],
    status: 'PASS',
    count: 0,
    samples: [],
  }));
  return { ok: true, nodes, edges, rules, schema: { count: 0, samples: [] } };
}

const NO_PROBLEMS: readonly string[] = [];

/** What is wrong with an edge's vocabulary: a function of the edge alone. */
function vocabularyProblems(e: Row): readonly string[] {
  const source = str(e.source);
  const target = str(e.target);
  const vocab: string[] = [];
  if (source === undefined || target === undefined) vocab.push('source and target must be strings');
  if (!IN_RELATIONS.has(e.relation)) vocab.push(`relation ${previewJson(e.relation)} is not in the vocabulary`);
  if (!IN_CONFIDENCES.has(e.confidence)) vocab.push(`confidence ${previewJson(e.confidence)} is not in the vocabulary`);
  if (!IN_PROVENANCES.has(e.provenance)) vocab.push(`provenance ${previewJson(e.provenance)} is not in the vocabulary`);
  if (!IN_RESOLUTIONS.has(e.resolution)) vocab.push(`resolution ${previewJson(e.resolution)} is not in the vocabulary`);
  if (!IN_EVIDENCE_CLASSES.has(e.evidenceClass)) vocab.push(`evidenceClass ${previewJson(e.evidenceClass)} is not in the vocabulary`);
  if (e.reason !== undefined && !IN_UNRESOLVED_REASONS.has(e.reason))
    vocab.push(`reason ${previewJson(e.reason)} is not in the vocabulary`);
  const toUnresolved = target?.startsWith(UNRESOLVED_PREFIX) ?? false;
  const toPackage = target?.startsWith(PACKAGE_PREFIX) ?? false;
  const klass = e.resolutionClass;
  if (klass !== undefined && !IN_RESOLUTION_CLASSES.has(klass))
    vocab.push(`resolutionClass ${JSON.stringify(klass)} is not in the vocabulary`);
  // An EXACT step from a package's declaration file to its source carries one of two proofs (ADR 107).
  if (vocab.length === 0) {
    const paired = klass === undefined ? undefined : PROVENANCE_OF_CLASS[klass as keyof typeof PROVENANCE_OF_CLASS];
    if (toPackage && (e.confidence !== 'EXACT' || klass === undefined))
      vocab.push(
        `a package-qualified target must be EXACT with resolutionClass EXACT_TYPECHECKED (TYPESCRIPT_CHECKER) or EXACT_PACKAGE_MAPPED (TYPESCRIPT_PROJECT_REFERENCE); has ${String(e.confidence)}${klass === undefined ? ' without a resolutionClass' : ''}`,
      );
    else if (paired !== undefined && e.provenance !== paired)
      vocab.push(`resolutionClass ${String(klass)} goes with provenance ${paired}, not ${String(e.provenance)}`);
    else if (klass === 'EXACT_TYPECHECKED' && !toPackage)
      vocab.push('EXACT_TYPECHECKED names a step into a package: its target must be a pkg: symbol');
    else if (e.provenance === 'TYPESCRIPT_PROJECT_REFERENCE' && klass !== 'EXACT_PACKAGE_MAPPED')
      vocab.push('TYPESCRIPT_PROJECT_REFERENCE without resolutionClass EXACT_PACKAGE_MAPPED');
  }
  if (e.confidence === 'EXACT') {
    if (typeof e.provenance === 'string' && !EXACT.has(e.provenance) && vocab.length === 0)
      vocab.push(`EXACT backed by non-exact provenance ${e.provenance}`);
    if (e.resolution !== 'EXTRACTED' && vocab.length === 0) vocab.push(`EXACT with resolution ${String(e.resolution)}`);
    if (e.evidenceClass !== 'DETERMINISTIC' && vocab.length === 0) vocab.push(`EXACT with evidenceClass ${String(e.evidenceClass)}`);
  } else if (e.confidence === 'CANDIDATE') {
    if (e.provenance !== 'NAME_MATCH' && vocab.length === 0)
      vocab.push(`CANDIDATE with provenance ${String(e.provenance)} (a guess is a NAME_MATCH)`);
  } else if (e.confidence === 'UNRESOLVED') {
    if (!toUnresolved && vocab.length === 0) vocab.push('UNRESOLVED edge whose target is not unresolved:<name>');
    if (e.provenance !== 'NONE' && vocab.length === 0) vocab.push(`UNRESOLVED with provenance ${String(e.provenance)}`);
  }
  if (toUnresolved && e.confidence !== 'UNRESOLVED' && vocab.length === 0)
    vocab.push(`${String(e.confidence)} edge to an unresolved placeholder`);
  return vocab.length === 0 ? NO_PROBLEMS : vocab;
}

/**
 * What the rules look up across rows. The full run builds it from the two lists; the build
 * server's doctor keeps one up to date from graph to graph (delta.ts, ADR 132). Both judge
 * every row with the same RuleChecker, so a row's verdict depends only on the answers given here.
 */
export interface RuleIndex {
  /** The node an id names (the first row with it). */
  node(id: string): Row | undefined;
  /** Sources of the `contains` edges to `id` that are nodes. */
  containers(id: string): readonly string[];
  /** Whether the graph has a file node for the path. */
  fileNode(path: string): boolean;
  /** Whether graph.json's `packages` records the package (ADR 107). */
  recorded(pkg: string, version: string): boolean;
  parseId(id: string): ParsedId | undefined;
}

/** The packages graph.json's `packages` records, as `name\u0000version`. */
export function recordedPackages(graph: Row): Set<string> {
  const recorded = new Set<string>();
  if (Array.isArray(graph.packages)) {
    for (const p of graph.packages as unknown[]) {
      if (isRow(p) && typeof p.name === 'string' && typeof p.version === 'string') recorded.add(`${p.name}\u0000${p.version}`);
    }
  }
  return recorded;
}

/** The rules that judge one row against a RuleIndex: rules 1–3 and 5 (an edge) and 6 (either). */
export class RuleChecker {
  /** Why a node is not declared, or undefined when it is (asked once per id). */
  private readonly verdicts = new Map<string, string | undefined>();

  constructor(
    private readonly ix: RuleIndex,
    private readonly c: Findings,
  ) {}

  undeclared(id: string): string | undefined {
    if (this.verdicts.has(id)) return this.verdicts.get(id);
    const v = this.whyUndeclared(id);
    this.verdicts.set(id, v);
    return v;
  }

  private whyUndeclared(id: string): string | undefined {
    if (id.startsWith(UNRESOLVED_PREFIX)) return 'an unresolved placeholder is not a declaration';
    const node = this.ix.node(id);
    if (!node) return 'no node has this id';
    const p = this.ix.parseId(id);
    if (!p) return 'the id is malformed';
    const from = this.ix.containers(id);
    switch (p.prefix) {
      case 'mod':
        return undefined;
      case 'file':
        return from.some((s) => s.startsWith('mod:')) ? undefined : 'no module contains this file';
      case 'sym':
        return from.length > 0 ? undefined : 'no file or symbol contains (declares) this symbol';
      default: {
        const sf = str(node.sourceFile);
        if (from.length > 0 || (sf !== undefined && this.ix.fileNode(sf))) return undefined;
        return 'neither a containing node nor a source file node declares it';
      }
    }
  }

  /** Rules 1–3 and 5 over an edge, and the ownership of the edge (rule 6). */
  edge(e: Row): void {
    const { ix, c } = this;
    const key = () => edgeKeyText(e);
    const source = str(e.source);
    const target = str(e.target);
    const toUnresolved = target?.startsWith(UNRESOLVED_PREFIX) ?? false;
    const toPackage = target?.startsWith(PACKAGE_PREFIX) ?? false;
    const vocab = vocabularyProblems(e);
    if (vocab.length > 0) c.add('unknown_confidence', 'edge', key, vocab.join('; '));

    if (e.confidence === 'EXACT' && source !== undefined && target !== undefined) {
      const s = this.undeclared(source);
      if (s) c.add('exact_edge_without_source', 'edge', key, `source ${source}: ${s}`);
      // An EXACT edge to a placeholder is already a vocabulary finding above; a package-qualified
      // target is declared by its package, in another repository's graph (below).
      const t = toUnresolved || toPackage ? undefined : this.undeclared(target);
      if (t) c.add('exact_edge_without_target', 'edge', key, `target ${target}: ${t}`);
    }
    if (toPackage && target !== undefined) {
      const p = ix.parseId(target);
      if (p?.prefix !== 'pkg') c.add('exact_edge_without_target', 'edge', key, `target ${target}: not a well-formed package-qualified id`);
      else if (ix.node(target))
        c.add(
          'invalid_repository_ownership',
          'edge',
          key,
          `target ${target} is another repository's symbol, but the graph holds a node for it`,
        );
      else if (!ix.recorded(p.pkg, p.version))
        c.add('invalid_repository_ownership', 'edge', key, `package ${p.pkg}@${p.version} of the target is not recorded in "packages"`);
    }

    let evidenceFile: string | undefined;
    if (e.evidence !== undefined) {
      evidenceFile = isRow(e.evidence) ? str(e.evidence.file) : undefined;
      if (evidenceFile === undefined) c.add('missing_evidence_file', 'edge', key, 'evidence without a file');
      else if (!ix.fileNode(evidenceFile)) c.add('missing_evidence_file', 'edge', key, `evidence file ${evidenceFile} is not a file node`);
    }

    // Ownership of the edge: it is observed in (and withdrawn with) its source's file.
    if (source !== undefined && evidenceFile !== undefined && ix.fileNode(evidenceFile)) {
      const owner = ownerFile(ix.node(source), source, ix.parseId);
      if (owner !== undefined && owner !== evidenceFile) {
        c.add('invalid_repository_ownership', 'edge', key, `observed in ${evidenceFile} but owned by ${owner} (the file of its source)`);
      }
    }
  }

  /** Rule 6 over a node (the first row with its id): the owning file matches the id, the file exists, containment agrees. */
  node(id: string, node: Row): void {
    const { ix, c } = this;
    const p = ix.parseId(id);
    const sf = str(node.sourceFile);
    if (!p || p.prefix === 'unresolved') {
      c.add('invalid_repository_ownership', 'node', id, 'the id is malformed, so no file can own it');
      return;
    }
    if (p.prefix === 'pkg') {
      c.add(
        'invalid_repository_ownership',
        'node',
        id,
        `a symbol of package ${p.pkg}@${p.version}: another repository's node is referenced by its id, never copied in`,
      );
      return;
    }
    if (p.prefix === 'mod') {
      if (sf !== undefined)
        c.add('invalid_repository_ownership', 'node', id, `a module is derived from the file set and has no sourceFile (has ${sf})`);
      for (const s of ix.containers(id)) {
        const sp = ix.parseId(s);
        const ancestor = sp?.prefix === 'mod' && p.dir !== sp.dir && (sp.dir === '' || p.dir.startsWith(sp.dir + '/'));
        if (!ancestor) {
          c.add('invalid_repository_ownership', 'node', id, `contained by ${s}, which is not an ancestor module`);
        }
      }
      return;
    }
    const idPath = fileOfId(id);
    if (sf === undefined) {
      c.add('invalid_repository_ownership', 'node', id, 'no sourceFile: no file owns this node');
      return;
    }
    if (idPath !== undefined && idPath !== sf) {
      c.add('invalid_repository_ownership', 'node', id, `sourceFile ${sf} does not match the file in its id (${idPath})`);
      return;
    }
    if (!ix.fileNode(sf)) {
      c.add('invalid_repository_ownership', 'node', id, `sourceFile ${sf} is not a file node`);
      return;
    }
    for (const s of ix.containers(id)) {
      if (p.prefix === 'file') {
        const want = 'mod:' + escapeIdPart(dirOf(sf) === '' ? '.' : dirOf(sf));
        if (s !== want) c.add('invalid_repository_ownership', 'node', id, `contained by ${s}; its module is ${want}`);
      } else {
        const owner = ownerFile(ix.node(s), s, ix.parseId);
        if (owner !== sf)
          c.add('invalid_repository_ownership', 'node', id, `contained by ${s}, which belongs to ${owner ?? 'no file'}, not ${sf}`);
      }
    }
  }
}

/** A node's key for the duplicate rule: its id's parts re-escaped (undefined for a malformed id). */
export function canonicalKey(id: string, parseId: (id: string) => ParsedId | undefined): string | undefined {
  const p = parseId(id);
  return p ? canonicalId(p) : undefined;
}

/** An id parser that parses each id once (a build runs the doctor before every write). */
export function memoParseId(): (id: string) => ParsedId | undefined {
  const parsed = new Map<string, ParsedId | undefined>();
  return (id) => {
    if (parsed.has(id)) return parsed.get(id);
    const p = parseIdText(id);
    parsed.set(id, p);
    return p;
  };
}

/**
 * The six rules over a parsed graph.json, without the schema (examineGraph adds it). Throws
 * GRAPH_INVALID only when the document is not a graph at all (not an object, no node or edge list).
 */
export function runDoctor(graph: unknown): DoctorReport {
  if (!isRow(graph)) throw new GraphError('GRAPH_INVALID', 'not a graph: the document is not a JSON object');
  if (!Array.isArray(graph.nodes) || !Array.isArray(graph.edges)) {
    throw new GraphError('GRAPH_INVALID', 'not a graph: "nodes" and "edges" must be arrays');
  }
  const nodes = graph.nodes as unknown[];
  const edges = graph.edges as unknown[];
  const c = new Collector();
  const parseId = memoParseId();

  // Index the nodes; the first row with an id is the one edges refer to.
  const byId = new Map<string, Row>();
  const byCanonical = new Map<string, string>();
  nodes.forEach((n, i) => {
    const id = isRow(n) ? str(n.id) : undefined;
    if (!isRow(n) || id === undefined) {
      c.add('duplicate_stable_key', 'node', `#${i}`, 'a node without a string id has no stable key');
      return;
    }
    if (byId.has(id)) {
      c.add(
        'duplicate_stable_key',
        'node',
        id,
        `the id is used by more than one node (kinds ${String(byId.get(id)?.kind)} and ${String(n.kind)})`,
      );
      return;
    }
    byId.set(id, n);
    const canon = canonicalKey(id, parseId);
    if (canon !== undefined) {
      const other = byCanonical.get(canon);
      if (other !== undefined) c.add('duplicate_stable_key', 'node', id, `names the same key as ${other} (canonical form ${canon})`);
      else byCanonical.set(canon, id);
    }
  });

  const edgeRows = edges.filter(isRow);
  edges.forEach((e, i) => {
    if (!isRow(e)) c.add('unknown_confidence', 'edge', `#${i}`, 'an edge that is not an object');
  });

  // Who contains whom.
  const containers = new Map<string, string[]>();
  for (const e of edgeRows) {
    if (e.relation !== 'contains') continue;
    const s = str(e.source);
    const t = str(e.target);
    if (s === undefined || t === undefined || !byId.has(s)) continue;
    const list = containers.get(t) ?? [];
    list.push(s);
    containers.set(t, list);
  }
  // Asked for each edge's evidence: one answer per path.
  const fileNodes = new Map<string, boolean>();
  // The packages package-qualified targets may come from (ADR 107).
  const recorded = recordedPackages(graph);
  const checker = new RuleChecker(
    {
      node: (id) => byId.get(id),
      containers: (id) => containers.get(id) ?? [],
      fileNode: (path) => {
        let has = fileNodes.get(path);
        if (has === undefined) fileNodes.set(path, (has = byId.has('file:' + escapeIdPart(path))));
        return has;
      },
      recorded: (pkg, version) => recorded.has(`${pkg}\u0000${version}`),
      parseId,
    },
    c,
  );

  // Rules 1–3 and 5 over edges, then rule 6 over nodes.
  for (const e of edgeRows) checker.edge(e);
  for (const [id, node] of byId) checker.node(id, node);

  const rules: DoctorRuleResult[] = DOCTOR_RULES.map((rule) => {
    const r = c.results.get(rule) as { count: number; samples: DoctorSample[] };
    return {
      rule,
      description: DOCTOR_RULE_DESCRIPTIONS[rule],
      status: r.count === 0 ? 'PASS' : 'FAIL',
      count: r.count,
      samples: r.samples,
    };
  });
  return { ok: rules.every((r) => r.status === 'PASS'), nodes: nodes.length, edges: edges.length, rules };
}

/**
 * The doctor's report as text: the schema's verdict when it was checked, then one line per rule
 * with status and count, samples beneath failures. Text from the graph is made visible (ADR 96):
 * a control character in an id prints as `\u001b`, never reaches the terminal.
 */
export function formatDoctorReport(report: DoctorReport, graphLabel: string): string {
  const lines: string[] = [`doctor: ${visible(graphLabel)}: ${report.nodes} nodes, ${report.edges} edges`];
  const width = Math.max(...DOCTOR_RULES.map((r) => r.length), 'schema'.length);
  const schema = report.schema;
  if (schema) {
    lines.push(`${schema.count === 0 ? 'PASS' : 'FAIL'} ${'schema'.padEnd(width)} ${schema.count}`);
    for (const s of schema.samples) lines.push(`    ${visible(s)}`);
    if (schema.count > schema.samples.length) lines.push(`    … ${schema.count - schema.samples.length} more`);
  }
  for (const r of report.rules) {
    lines.push(`${r.status} ${r.rule.padEnd(width)} ${r.count}`);
    for (const s of r.samples) lines.push(`    ${s.table} ${visible(s.key)}: ${visible(s.detail)}`);
    if (r.count > r.samples.length) lines.push(`    … ${r.count - r.samples.length} more`);
  }
  const failed = report.rules.filter((r) => r.status === 'FAIL').length;
  const rules = failed === 0 ? 'all 6 rules pass' : `${failed} of 6 rules failed`;
  if (!schema || schema.count === 0) lines.push(`doctor: ${rules}`);
  else
    lines.push(
      `doctor: the graph does not match its schema (schema/graph.schema.json: ${schema.count} violation${schema.count === 1 ? '' : 's'}; no query reads it); ${rules}`,
    );
  return lines.join('\n') + '\n';
}
