// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import {
  findDeniedAncestor,
  findInvalidSelector,
  resolveAnchors,
  scopeSelector,
} from '../../../src/auto-ads/anchors.ts';
import type { AnchorSpec } from '../../../src/wire/auto-ads-config.ts';

const anchor = (patch: Partial<AnchorSpec> & { selector: string }): AnchorSpec => ({
  index: undefined,
  isAll: false,
  minimumTextLength: 0,
  sub: undefined,
  ...patch,
});
const ids = (elements: Iterable<Element>) => [...elements].map((element) => element.id);

beforeEach(() => {
  document.body.innerHTML = `
    <aside id="side"><p id="s1" class="x">side paragraph</p></aside>
    <article id="a1"><p id="p1" class="x">one</p><p id="p2" class="x">two two two</p><div id="d1"><p id="p3" class="x">three three</p></div></article>
    <article id="a2"><p id="p4" class="x">four</p><p id="p5" class="x">five five five</p></article>`;
});

describe('anchors', () => {
  it('takes the first match by default', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: '.x' })))).toEqual(['s1']);
  });

  it('takes the match at index', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: '.x', index: 2 })))).toEqual(['p2']);
  });

  it('finds nothing for an index out of range', () => {
    expect(resolveAnchors(document, anchor({ selector: '.x', index: 9 }))).toEqual([]);
  });

  it('takes every match in document order with all', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: 'article .x', isAll: true })))).toEqual([
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
    ]);
  });

  it('lets index win over all', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: 'article .x', isAll: true, index: 0 })))).toEqual(['p1']);
  });

  it('filters by min_c before taking the index', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: 'article .x', minimumTextLength: 5 })))).toEqual(['p2']);
    expect(ids(resolveAnchors(document, anchor({ selector: 'article .x', minimumTextLength: 5, index: 1 })))).toEqual([
      'p3',
    ]);
  });

  it('keeps elements whose text length equals min_c', () => {
    expect(
      ids(resolveAnchors(document, anchor({ selector: 'article .x', minimumTextLength: 4, isAll: true }))),
    ).toEqual(['p2', 'p3', 'p4', 'p5']);
  });

  it('resolves sub inside every kept parent, in order', () => {
    const spec = anchor({ selector: 'article', isAll: true, sub: anchor({ selector: 'p', isAll: true }) });
    expect(ids(resolveAnchors(document, spec))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });

  it('resolves sub only inside the indexed parent', () => {
    const spec = anchor({ selector: 'article', index: 1, sub: anchor({ selector: 'p', index: 1 }) });
    expect(ids(resolveAnchors(document, spec))).toEqual(['p5']);
  });

  it('recurses through two sub levels to the deepest matches', () => {
    const spec = anchor({
      selector: 'article',
      sub: anchor({ selector: 'div', sub: anchor({ selector: 'p', isAll: true }) }),
    });
    expect(ids(resolveAnchors(document, spec))).toEqual(['p3']);
  });

  it('applies min_c at sub levels before the index', () => {
    const spec = anchor({ selector: 'article', isAll: true, sub: anchor({ selector: 'p', minimumTextLength: 5 }) });
    expect(ids(resolveAnchors(document, spec))).toEqual(['p2', 'p5']);
  });

  it('finds nothing when sub matches nothing', () => {
    expect(resolveAnchors(document, anchor({ selector: 'article', sub: anchor({ selector: 'table' }) }))).toEqual([]);
  });

  it('scopes sub selectors to the parent: an ancestor outside it matches nothing', () => {
    const spec = anchor({ selector: '#d1', sub: anchor({ selector: 'article p', isAll: true }) });
    expect(resolveAnchors(document, spec)).toEqual([]);
  });

  it('accepts a sub selector starting with a combinator', () => {
    const spec = anchor({ selector: '#a1', sub: anchor({ selector: '> p', isAll: true }) });
    expect(ids(resolveAnchors(document, spec))).toEqual(['p1', 'p2']);
  });

  it('matches top-level selectors against the whole document', () => {
    expect(ids(resolveAnchors(document, anchor({ selector: 'body > article', isAll: true })))).toEqual(['a1', 'a2']);
  });

  it('prefixes every part of a selector list, keeping commas inside brackets', () => {
    expect(scopeSelector('p, div:is(.a, .b) > span ,[data-x="a,b"]')).toBe(
      ':scope p,:scope div:is(.a, .b) > span,:scope [data-x="a,b"]',
    );
  });

  it('finds the first selector that does not parse, at any level', () => {
    const probe = document.createDocumentFragment();
    expect(findInvalidSelector(anchor({ selector: 'p' }), probe)).toBeUndefined();
    expect(findInvalidSelector(anchor({ selector: 'p[' }), probe)).toBe('p[');
    expect(findInvalidSelector(anchor({ selector: 'p', sub: anchor({ selector: '> a' }) }), probe)).toBeUndefined();
    expect(findInvalidSelector(anchor({ selector: 'p', sub: anchor({ selector: 'a)' }) }), probe)).toBe('a)');
  });

  describe('denied ancestors', () => {
    const never = () => false;
    beforeEach(() => {
      document.body.innerHTML = `
        <page-sidebar id="sb"><p id="in-sidebar">x</p></page-sidebar>
        <page-app-banner id="ab"><div><p id="in-banner">x</p></div></page-app-banner>
        <div id="fixed"><p id="in-fixed">x</p></div>
        <div id="has-sidebar"><page-sidebar></page-sidebar></div>
        <p id="plain">x</p>`;
    });
    const byId = (id: string) => document.getElementById(id)!;

    it('denies anchors inside page-sidebar and page-app-banner', () => {
      expect(findDeniedAncestor(byId('in-sidebar'), 'after', never)?.id).toBe('sb');
      expect(findDeniedAncestor(byId('in-banner'), 'first-child', never)?.id).toBe('ab');
    });

    it('checks the anchor itself for FIRST_CHILD and LAST_CHILD', () => {
      expect(findDeniedAncestor(byId('sb'), 'first-child', never)?.id).toBe('sb');
      expect(findDeniedAncestor(byId('ab'), 'last-child', never)?.id).toBe('ab');
    });

    it('checks only the parent for BEFORE and AFTER', () => {
      expect(findDeniedAncestor(byId('sb'), 'before', never)).toBeUndefined();
      expect(findDeniedAncestor(byId('ab'), 'after', never)).toBeUndefined();
    });

    it('allows an anchor that merely contains a sidebar', () => {
      expect(findDeniedAncestor(byId('has-sidebar'), 'last-child', never)).toBeUndefined();
      expect(findDeniedAncestor(byId('plain'), 'after', never)).toBeUndefined();
    });

    it('denies anchors in containers the injected style check calls pinned', () => {
      const isPinned = (element: Element) => element.id === 'fixed';
      expect(findDeniedAncestor(byId('in-fixed'), 'after', isPinned)?.id).toBe('fixed');
      expect(findDeniedAncestor(byId('fixed'), 'after', isPinned)).toBeUndefined();
      expect(findDeniedAncestor(byId('fixed'), 'first-child', isPinned)?.id).toBe('fixed');
    });

    it('denies anchors inside an ad', () => {
      document.body.innerHTML = '<page-ad id="ad"><div id="in-ad"></div></page-ad>';
      expect(findDeniedAncestor(byId('in-ad'), 'after', never)?.id).toBe('ad');
    });

    it('denies BEFORE and AFTER on a parentless anchor', () => {
      const root = document.documentElement;
      expect(findDeniedAncestor(root, 'before', never)).toBe(root);
    });
  });
});
