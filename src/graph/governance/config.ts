// The graph section of `.knowledge-graph/config.json` and the mode it resolves to
// (docs/configuration.md, "graph — modes"; ADR-70). Resolution is a pure function that never
// throws: every malformed value clamps toward the safe side (`off`, or `advisory` for the
// modes that need a person's sign-off) and is reported, so the editor, `kg config` and
// `kg check` always get an answer and can say why. No compiler here: the extension host and
// `kg config` load this file on their own.

import type { FileHost } from '../indexer/files/file-host';
import { CONFIG_FILE, readRepositoryConfig } from '../indexer/files/repository-config';
import { previewJson } from '../io/display';

/** From least to most intrusive. */
export const MODES = ['off', 'shadow', 'advisory', 'guarded', 'strict'] as const;
export type Mode = (typeof MODES)[number];

const MIN_LEVEL = 0;
const MAX_LEVEL = 10;
/** Below this level the capability is off. */
const LEVEL_ENABLED = 4;
/** `guarded` and `strict` need at least this level. */
const LEVEL_GUARDED = 7;

/**
 * The shipped configuration: what applies when the file, or a key, is absent. An absent key is
 * not a problem; a key present with a bad value is.
 */
const DEFAULT_GRAPH_CONFIG = { enabled: true, mode: 'advisory', humanFlip: false, autoIndex: true, level: LEVEL_ENABLED } as const;

/**
 * The rows of the resolution table, first match wins, in the documented order.
 * - disabled: `enabled` is not exactly `true` → off
 * - level-below-4: level below 4 → off
 * - guarded-below-level-7: `guarded` or `strict` requested below level 7 → advisory
 * - guarded-without-human-flip: `guarded` or `strict` requested without `humanFlip` → advisory
 * - as-requested: anything else (off, shadow, advisory at level ≥ 4; guarded/strict at level ≥ 7 with humanFlip)
 */
type ModeRule = 'disabled' | 'level-below-4' | 'guarded-below-level-7' | 'guarded-without-human-flip' | 'as-requested';

const MODE_RULE_TEXT: Readonly<Record<ModeRule, string>> = {
  disabled: '`enabled` is not exactly `true` → off',
  'level-below-4': 'level below 4 → off',
  'guarded-below-level-7': '`guarded` or `strict` requested below level 7 → advisory',
  'guarded-without-human-flip': '`guarded` or `strict` requested without `humanFlip` → advisory',
  'as-requested': 'the requested mode at level 4 or above (guarded and strict: at level 7 or above with `humanFlip`) → as requested',
};

interface GraphConfigValues {
  enabled: boolean;
  /** For `requested`, the default stands in for an unknown or mistyped mode (see problems). */
  mode: Mode;
  humanFlip: boolean;
  autoIndex: boolean;
  level: number;
}

export interface ResolvedGraphConfig {
  /** What the file asked for, after each malformed value was replaced by its safe value. */
  requested: GraphConfigValues;
  /** What applies. `mode` never exceeds `requested.mode`; `autoIndex` is false when disabled. */
  resolved: GraphConfigValues;
  /** The row of the resolution table that decided `resolved.mode`. */
  rule: ModeRule;
  ruleText: string;
  /** Every problem found, in file order of the keys, each saying what was used instead. */
  problems: string[];
}

const GRAPH_KEYS = ['enabled', 'mode', 'humanFlip', 'autoIndex'] as const;
/**
 * Top-level keys someone reads: `rationale` is the rationale layer's, `repository` the builder's
 * (the name graph.json records, ADR 108; docs/configuration.md), `entries` the builder's too (ADR 157).
 */
const TOP_KEYS = ['$schema', 'entries', 'graph', 'level', 'rationale', 'repository'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  return previewJson(v, 60);
}

function isMode(v: unknown): v is Mode {
  return typeof v === 'string' && (MODES as readonly string[]).includes(v);
}

export function modeRank(m: Mode): number {
  return MODES.indexOf(m);
}

/**
 * Resolves the parsed top level of `.knowledge-graph/config.json` (any value: a non-object
 * counts as malformed). Never throws.
 */
export function resolveGraphConfig(config: unknown, initialProblems: readonly string[] = []): ResolvedGraphConfig {
  const problems = [...initialProblems];
  let top: Record<string, unknown> = {};
  if (isObject(config)) top = config;
  else if (config !== undefined)
    problems.push(`the top level must be an object (found ${show(config)}); using the defaults with the capability disabled`);
  const malformedTop = config !== undefined && !isObject(config);

  for (const k of Object.keys(top).sort()) {
    if (!(TOP_KEYS as readonly string[]).includes(k))
      problems.push(`unknown key "${k}" (known: ${TOP_KEYS.filter((t) => t !== '$schema').join(', ')}); ignored`);
  }

  let section: Record<string, unknown> = {};
  const rawSection = top.graph;
  let malformedSection = false;
  if (rawSection !== undefined) {
    if (isObject(rawSection)) section = rawSection;
    else {
      malformedSection = true;
      problems.push(`"graph" must be an object (found ${show(rawSection)}); the capability is disabled`);
    }
  }
  for (const k of Object.keys(section).sort()) {
    if (!(GRAPH_KEYS as readonly string[]).includes(k))
      problems.push(`unknown key "graph.${k}" (known: ${GRAPH_KEYS.join(', ')}); ignored`);
  }

  // enabled: only an explicit `true` enables; any other shape disables.
  // A file that exists and does not say `"enabled": true` is off; only no file at all (config
  // undefined) gets the shipped defaults (ADR 70).
  let enabled: boolean = config === undefined ? DEFAULT_GRAPH_CONFIG.enabled : false;
  if (malformedTop || malformedSection) enabled = false;
  else if (config !== undefined && !('enabled' in section)) {
    problems.push(
      rawSection === undefined
        ? 'no "graph" section, so no "graph.enabled": only an explicit true enables, so the capability is disabled (no config file at all gets the defaults)'
        : '"graph.enabled" is missing: only an explicit true enables, so the capability is disabled (no config file at all gets the defaults)',
    );
  } else if ('enabled' in section) {
    const v = section.enabled;
    enabled = v === true;
    if (typeof v !== 'boolean')
      problems.push(
        `"graph.enabled" must be true or false (found ${show(v)}); only an explicit true enables, so the capability is disabled`,
      );
  }

  let mode: Mode = DEFAULT_GRAPH_CONFIG.mode;
  if ('mode' in section) {
    const v = section.mode;
    if (isMode(v)) mode = v;
    else problems.push(`"graph.mode" must be one of ${MODES.join(', ')} (found ${show(v)}); using "${DEFAULT_GRAPH_CONFIG.mode}"`);
  }

  let humanFlip: boolean = DEFAULT_GRAPH_CONFIG.humanFlip;
  if ('humanFlip' in section) {
    const v = section.humanFlip;
    humanFlip = v === true;
    if (typeof v !== 'boolean') problems.push(`"graph.humanFlip" must be true or false (found ${show(v)}); using false`);
  }

  let autoIndex: boolean = DEFAULT_GRAPH_CONFIG.autoIndex;
  if ('autoIndex' in section) {
    const v = section.autoIndex;
    if (typeof v === 'boolean') autoIndex = v;
    else {
      autoIndex = false;
      problems.push(`"graph.autoIndex" must be true or false (found ${show(v)}); using false`);
    }
  }

  let level: number = DEFAULT_GRAPH_CONFIG.level;
  if (malformedTop) level = MIN_LEVEL;
  else if ('level' in top) {
    const v = top.level;
    if (typeof v === 'number' && Number.isInteger(v) && v >= MIN_LEVEL && v <= MAX_LEVEL) level = v;
    else {
      level = MIN_LEVEL;
      problems.push(`"level" must be an integer from ${MIN_LEVEL} to ${MAX_LEVEL} (found ${show(v)}); using ${MIN_LEVEL}`);
    }
  }

  const requested: GraphConfigValues = { enabled, mode, humanFlip, autoIndex, level };
  const { mode: resolvedMode, rule } = resolveMode(requested);
  return {
    requested,
    resolved: { enabled, mode: resolvedMode, humanFlip, autoIndex: enabled && autoIndex, level },
    rule,
    ruleText: MODE_RULE_TEXT[rule],
    problems,
  };
}

/** The resolution table itself, over well-typed values; first matching row wins. */
function resolveMode(v: Pick<GraphConfigValues, 'enabled' | 'mode' | 'humanFlip' | 'level'>): { mode: Mode; rule: ModeRule } {
  if (v.enabled !== true) return { mode: 'off', rule: 'disabled' };
  if (!(v.level >= LEVEL_ENABLED)) return { mode: 'off', rule: 'level-below-4' };
  const guarded = v.mode === 'guarded' || v.mode === 'strict';
  if (guarded && v.level < LEVEL_GUARDED) return { mode: 'advisory', rule: 'guarded-below-level-7' };
  if (guarded && v.humanFlip !== true) return { mode: 'advisory', rule: 'guarded-without-human-flip' };
  return { mode: v.mode, rule: 'as-requested' };
}

export interface GraphConfigReport extends ResolvedGraphConfig {
  /** Repository-relative path of the file read. */
  configFile: string;
  /** Whether the file exists (absent: the shipped defaults). */
  found: boolean;
}

/** Reads and resolves `<root>/.knowledge-graph/config.json`. Never throws. */
export function readGraphConfig(host: FileHost, root: string): GraphConfigReport {
  let found = false;
  try {
    found = host.stat(root + '/' + CONFIG_FILE) !== undefined;
  } catch {
    found = false;
  }
  let read: { value: Record<string, unknown>; diagnostics: Array<{ reason: string }> };
  try {
    read = readRepositoryConfig(host, root);
  } catch (e) {
    read = { value: {}, diagnostics: [{ reason: `config: unreadable (${(e as Error)?.message ?? String(e)})` }] };
  }
  // A file that exists but cannot be used is malformed as a whole: disabled, not the defaults.
  const unusable = read.diagnostics.length > 0;
  const initial = read.diagnostics.map(
    (d) => d.reason.replace(/^config: /, '').replace(/; using defaults$/, '') + '; the capability is disabled',
  );
  const resolved = resolveGraphConfig(unusable ? { graph: { enabled: false } } : found ? read.value : undefined, initial);
  // The stand-in object above is ours, not the user's: report only what was wrong with the file.
  if (unusable) resolved.problems = initial;
  return { configFile: CONFIG_FILE, found, ...resolved };
}
