/**
 * No import circle in src/, server/ or cli/ (docs/import-rules.md): type imports count, since a
 * circle of types is a circle of meaning that a later value import closes.
 */
import { describe, expect, it } from 'vitest';
import { circlesOf, edgesOf, graphOf } from './import-graph.ts';

describe('import circles (docs/import-rules.md)', () => {
  it('finds none in src, server or cli', () => {
    expect(circlesOf(graphOf(edgesOf(['src', 'server', 'cli'])))).toEqual([]);
  });

  it('finds a circle of two files and one of four', () => {
    const graph = graphOf(['a -> b', 'b -> a', 'c -> d', 'd -> e', 'e -> f', 'f -> d', 'g -> c']);
    expect(circlesOf(graph)).toEqual(['a -> b -> a', 'd -> e -> f -> d']);
  });

  it('finds no circle where two paths only meet', () => {
    expect(circlesOf(graphOf(['a -> b', 'a -> c', 'b -> d', 'c -> d']))).toEqual([]);
  });
});
