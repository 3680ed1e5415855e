// One banner per graph state, for both webviews: what a user sees when the graph cannot answer, or
// answers with a caveat, and the action that fixes it (docs/adr/0067). Pure: a state in, a banner
// out, unit-tested in test/unit/panel-answers.test.ts.

import type { Banner } from '../../protocol/messages';
import type { FolderGraphState } from '../graph-access';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A reason as the rest of a sentence after the banner's title ("The last build failed: …"), with one full stop. */
function sentence(reason: string): string {
  return `${reason.trim().replace(/[.\s]+$/, '')}.`;
}

export function bannerFor(s: FolderGraphState | undefined): Banner | null {
  if (!s)
    return {
      kind: 'no-folder',
      reason: 'Open a folder (or a workspace) to build and explore its knowledge graph.',
      actions: [],
      blocking: true,
    };
  const progress = s.building ? `${s.building.phase}${s.building.total ? ` ${s.building.done}/${s.building.total}` : ''}` : '';
  switch (s.kind) {
    case 'absent':
      if (s.building)
        return {
          kind: 'building',
          reason: `building the first graph of ${s.folderName} (${progress})…`,
          actions: ['showLog'],
          blocking: true,
        };
      if (s.buildFailure !== undefined)
        return {
          kind: 'build-failed',
          reason: `${sentence(s.buildFailure)} ${s.folderName} has no graph yet; fix that, then build again.`,
          actions: ['showLog', 'build'],
          blocking: true,
        };
      return { kind: 'absent', reason: s.reason ?? `${s.folderName} has no knowledge graph yet.`, actions: ['build'], blocking: true };
    case 'loading':
      return { kind: 'loading', reason: `reading the graph of ${s.folderName}…`, actions: [], blocking: true };
    case 'unusable':
      return { kind: 'unusable', reason: s.reason ?? 'the graph file cannot be read.', actions: ['rebuild', 'showLog'], blocking: true };
    case 'ready':
      break;
  }
  if (s.building)
    return {
      kind: 'building',
      reason: `a build is running (${progress}); the graph shown is the previous one.`,
      actions: ['showLog'],
      blocking: false,
    };
  // A build that failed (a config it cannot read, a suspected parse failure) would fail again:
  // it is said as a failure, with its reason and where, not as "stale … Build" (ADR 91).
  if (s.buildFailure !== undefined) {
    const changed = s.staleFiles.length > 0 ? ` ${plural(s.staleFiles.length, 'file')} changed since it was built.` : '';
    return {
      kind: 'build-failed',
      reason: `${sentence(s.buildFailure)} The graph shown is the previous one.${changed}`,
      actions: ['showLog'],
      blocking: false,
    };
  }
  if (!s.callsLayer) {
    return {
      kind: 'calls-missing',
      reason:
        'the graph was built without the calls layer (--extract-only): calls are not in it, so neighbourhoods and paths leave them out.',
      actions: ['rebuild'],
      blocking: false,
    };
  }
  if (s.staleFiles.length > 0) {
    const names = s.staleFiles.slice(0, 3).join(', ') + (s.staleFiles.length > 3 ? ', …' : '');
    return {
      kind: 'stale',
      reason: `${plural(s.staleFiles.length, 'file')} changed since it was built (${names}).`,
      actions: ['build', 'showLog'],
      blocking: false,
    };
  }
  return null;
}

export function summaryOf(s: FolderGraphState | undefined): string {
  if (!s) return '';
  if (s.kind !== 'ready') return s.folderName;
  return `${s.folderName} · ${plural(s.nodes ?? 0, 'node')} · ${plural(s.edges ?? 0, 'edge')}`;
}
