// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createChangeSize } from '../../../src/runtime/change-size.ts';
import { RECENT_INTERACTION_MS } from '../../../src/runtime/change-size-decision.ts';
import { createViewport, SCROLL_IDLE_MS, type ViewportPlatform } from '../../../src/runtime/viewport.ts';

type Scene = {
  scrollTop: number;
  elementTop: number;
  elementHeight: number;
  marginTop: number;
  hidden: boolean;
  lastInteraction: number;
};

/**
 * A scripted page: viewport 800 px high over a 10,000 px document, one element whose page
 * box the test sets; frames run synchronously.
 */
function setUp(patch: Partial<Scene> = {}) {
  const scene: Scene = {
    scrollTop: 1000,
    elementTop: 1200,
    elementHeight: 0,
    marginTop: 0,
    hidden: false,
    lastInteraction: -Infinity,
    ...patch,
  };
  const element = document.createElement('div');
  const scrollListeners = new Set<() => void>();
  const platform: ViewportPlatform = {
    getBoundingClientRect: () => {
      const top = scene.elementTop - scene.scrollTop;
      return { top, bottom: top + scene.elementHeight, left: 0, right: 300, width: 300, height: scene.elementHeight };
    },
    getMargins: () => ({ top: scene.marginTop, bottom: 0 }),
    getScrollTop: () => scene.scrollTop,
    getViewportHeight: () => 800,
    getViewportWidth: () => 400,
    getDocumentHeight: () => 10_000,
    scrollBy: vi.fn((dy: number) => void (scene.scrollTop += dy)),
    addScrollListener: (listener) => {
      scrollListeners.add(listener);
      return () => void scrollListeners.delete(listener);
    },
    addResizeListener: () => () => {},
  };
  const viewport = createViewport({ platform, scheduleFrame: (callback) => callback() });
  const attemptChangeSize = createChangeSize({
    viewport,
    platform,
    isDocumentHidden: () => scene.hidden,
    lastInteraction: () => scene.lastInteraction,
    now: () => 10_000,
  });
  const scrollTo = (top: number) => {
    scene.scrollTop = top;
    for (const listener of scrollListeners) listener();
  };
  return { scene, element, platform, attemptChangeSize, scrollTo };
}

afterEach(() => vi.useRealTimers());

describe('change-size', () => {
  it('refuses growth inside the viewport and leaves the element alone', async () => {
    const { element, attemptChangeSize } = setUp();
    await expect(attemptChangeSize(element, 250)).rejects.toThrow('refused');
    expect(element.style.height).toBe('');
  });

  it('applies height, width and margins below the viewport', async () => {
    const { element, attemptChangeSize, platform } = setUp({ elementTop: 2500 });
    await attemptChangeSize(element, 250, 320, { top: 16, left: -20 });
    expect([element.style.height, element.style.width, element.style.marginTop, element.style.marginLeft]).toEqual([
      '250px',
      '320px',
      '16px',
      '-20px',
    ]);
    expect(platform.scrollBy).not.toHaveBeenCalled();
  });

  it('applies in the bottom 10% of the viewport', async () => {
    const { element, attemptChangeSize } = setUp({ elementTop: 1720 });
    await attemptChangeSize(element, 250);
    expect(element.style.height).toBe('250px');
  });

  it('applies near the document end', async () => {
    const { element, attemptChangeSize } = setUp({ scrollTop: 9200, elementTop: 9950 - 400, elementHeight: 400 });
    await attemptChangeSize(element, 250);
    expect(element.style.height).toBe('250px');
  });

  it('applies inside the viewport when the document is hidden', async () => {
    const { element, attemptChangeSize } = setUp({ hidden: true });
    await attemptChangeSize(element, 250);
    expect(element.style.height).toBe('250px');
  });

  it('applies inside the viewport right after an interaction with the element', async () => {
    const { element, attemptChangeSize, scene } = setUp({ lastInteraction: 10_000 - RECENT_INTERACTION_MS + 1 });
    await attemptChangeSize(element, 250);
    expect(element.style.height).toBe('250px');
    scene.lastInteraction = 10_000 - RECENT_INTERACTION_MS;
    await expect(attemptChangeSize(element, 300)).rejects.toThrow('refused');
  });

  it('applies above the viewport at once when not scrolling and compensates the scroll', async () => {
    const { element, attemptChangeSize, scene } = setUp({ elementTop: 500, elementHeight: 100, marginTop: 4 });
    await attemptChangeSize(element, 250, undefined, { top: 10 });
    expect(element.style.height).toBe('250px');
    // 150 px taller and 6 px more top margin: the visible content stays where it was.
    expect(scene.scrollTop).toBe(1000 + 150 + 6);
  });

  it('waits for scroll idle before applying above the viewport', async () => {
    vi.useFakeTimers();
    const { element, attemptChangeSize, scene, scrollTo, platform } = setUp({ elementTop: 500, elementHeight: 100 });
    scrollTo(1000);
    let isSettled = false;
    const attempt = attemptChangeSize(element, 40).finally(() => (isSettled = true));
    await vi.advanceTimersByTimeAsync(SCROLL_IDLE_MS - 1);
    expect(isSettled).toBe(false);
    scrollTo(1100);
    await vi.advanceTimersByTimeAsync(SCROLL_IDLE_MS - 1);
    expect(element.style.height).toBe('');
    await vi.advanceTimersByTimeAsync(1);
    await attempt;
    expect(element.style.height).toBe('40px');
    expect(platform.scrollBy).toHaveBeenCalledWith(-60);
    expect(scene.scrollTop).toBe(1100 - 60);
  });

  it('re-decides after scroll idle and refuses once the element is in view', async () => {
    vi.useFakeTimers();
    const { element, attemptChangeSize, scrollTo } = setUp({ elementTop: 500, elementHeight: 100 });
    scrollTo(1000);
    const attempt = attemptChangeSize(element, 250);
    const outcome = expect(attempt).rejects.toThrow('refused');
    scrollTo(450);
    await vi.advanceTimersByTimeAsync(SCROLL_IDLE_MS);
    await outcome;
    expect(element.style.height).toBe('');
  });

  it('rejects instead of hanging when measuring fails', async () => {
    const { element, attemptChangeSize, platform } = setUp();
    platform.getBoundingClientRect = () => {
      throw new Error('detached');
    };
    await expect(attemptChangeSize(element, 250)).rejects.toThrow('detached');
  });
});
