// The one definition of "what breaks" (ADR 151): which relations make a node a consumer of the
// node it points at, which of them a blast radius walks, and which are dispatch (a member that
// implements or overrides another). The query layer, the diff report, the guard, the store and the
// exports all import these sets; none of them writes its own. Imports only the model, so every
// pure part of the engine may use it.

import type { Relation } from './model';

/**
 * A source of one of these edges breaks when the target is renamed, removed or changes its
 * signature: it calls it, names it (a reference, an import, a re-export), builds on it (heritage),
 * or implements or overrides it (dispatch).
 */
export const CONSUMER_RELATIONS: ReadonlySet<Relation> = new Set<Relation>([
  'calls',
  'references',
  'imports',
  're-exports',
  'extends',
  'implements',
  'inherits',
  'overrides',
]);

/** What a transitive blast radius walks: the consumers at symbol level (a file's imports would flood it). */
export const RADIUS_RELATIONS: ReadonlySet<Relation> = new Set<Relation>([
  'calls',
  'references',
  're-exports',
  'extends',
  'implements',
  'inherits',
  'overrides',
]);

/**
 * Member-level dispatch: a method or field that implements an interface's member or overrides a
 * base class's. A call through the member it points at may run it; such callers are reported as a
 * tier of their own, never merged with its direct callers.
 */
export const DISPATCH_RELATIONS: ReadonlySet<Relation> = new Set<Relation>(['implements', 'overrides']);

/**
 * The consumers that use a node without calling it and without dispatch: a reference (a value
 * passed or stored, a type, a named import), a re-export, a subclass. The callers lens counts
 * them after the callers, never added to them ("0 callers · 18 referrers"), so that a function
 * passed as a callback is not shown as a bare "0 callers".
 */
export const USE_RELATIONS: ReadonlySet<Relation> = new Set<Relation>(
  [...CONSUMER_RELATIONS].filter((r) => r !== 'calls' && !DISPATCH_RELATIONS.has(r)),
);
