// Golden snapshots: each fixture is one behaviour; graph.json and a readable listing per fixture.

import { after, describe, it } from 'node:test';
import { buildGraph, serializeGraph } from '../../src/graph';
import { copyFixture, fixtureNames, removeTempDirs } from '../helpers/fixtures';
import { assertValidGraph } from '../helpers/schema';
import { listing, matchSnapshot } from '../helpers/snapshot';

describe('fixture snapshots', () => {
  after(removeTempDirs);
  for (const name of fixtureNames()) {
    it(name, () => {
      const root = copyFixture(name);
      const { graph } = buildGraph({ root });
      const text = serializeGraph(graph);
      assertValidGraph(JSON.parse(text));
      matchSnapshot(name, { 'graph.json': text, 'listing.txt': listing(graph) });
    });
  }
});
