// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  browserPlatform,
  createViewport,
  SCROLL_IDLE_MS,
  type ViewportPlatform,
} from '../../../src/runtime/viewport.ts';

/** A scripted platform: fixed rects, a settable scroll top, and manual scroll/resize events. */
function fakePlatform() {
  const scrollListeners = new Set<() => void>();
  const resizeListeners = new Set<() => void>();
  const state = { scrollTop: 0, scrollListenerCount: 0 };
  const platform: ViewportPlatform = {
    getBoundingClientRect: () => ({ top: 100, bottom: 150, left: 10, right: 310, width: 300, height: 50 }),
    getMargins: () => ({ top: 0, bottom: 0 }),
    getScrollTop: () => state.scrollTop,
    getViewportHeight: () => 800,
    getViewportWidth: () => 400,
    getDocumentHeight: () => 5000,
    scrollBy: (dy) => void (state.scrollTop += dy),
    addScrollListener: (listener) => {
      state.scrollListenerCount++;
      scrollListeners.add(listener);
      return () => void scrollListeners.delete(listener);
    },
    addResizeListener: (listener) => {
      resizeListeners.add(listener);
      return () => void resizeListeners.delete(listener);
    },
  };
  const emit = (listeners: Set<() => void>) => () => {
    for (const listener of listeners) listener();
  };
  return { platform, state, scroll: emit(scrollListeners), resize: emit(resizeListeners) };
}

/** A frame scheduler the test advances by hand. */
function manualFrames() {
  const pending: (() => void)[] = [];
  return {
    scheduleFrame: (callback: () => void) => void pending.push(callback),
    pending,
    next: () => pending.shift()?.(),
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('viewport', () => {
  it('runs every measure of a frame before any mutate', () => {
    const frames = manualFrames();
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: frames.scheduleFrame });
    const log: string[] = [];
    viewport.measure(() => log.push('read 1'));
    viewport.mutate(() => log.push('write 1'));
    viewport.measure(() => log.push('read 2'));
    viewport.mutate(() => log.push('write 2'));
    expect(log).toEqual([]);
    expect(frames.pending).toHaveLength(1);
    frames.next();
    expect(log).toEqual(['read 1', 'read 2', 'write 1', 'write 2']);
  });

  it('runs tasks queued during a frame in the next frame', () => {
    const frames = manualFrames();
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: frames.scheduleFrame });
    const log: string[] = [];
    viewport.measure(() => {
      log.push('read 1');
      viewport.measure(() => log.push('read 2'));
      viewport.mutate(() => log.push('write 2'));
    });
    viewport.mutate(() => log.push('write 1'));
    frames.next();
    expect(log).toEqual(['read 1', 'write 1']);
    expect(frames.pending).toHaveLength(1);
    frames.next();
    expect(log).toEqual(['read 1', 'write 1', 'read 2', 'write 2']);
  });

  it('never nests frames with a synchronous scheduler', () => {
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: (callback) => callback() });
    const log: string[] = [];
    viewport.measure(() => {
      viewport.mutate(() => log.push('write'));
      log.push('read done');
    });
    expect(log).toEqual(['read done', 'write']);
  });

  it('reports a failing task as task-failed and keeps draining', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const report = vi.fn();
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: () => {}, report });
    const log: string[] = [];
    viewport.measure(() => {
      throw new Error('boom');
    });
    viewport.measure(() => log.push('read'));
    viewport.mutate(() => log.push('write'));
    viewport.flush();
    expect(log).toEqual(['read', 'write']);
    expect(report).toHaveBeenCalledOnce();
    expect(report.mock.calls[0]?.[1]).toMatchObject({ code: 'task-failed', got: '"Error: boom"' });
  });

  it('logs task-failed and, in development, the error itself on the console', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: () => {} });
    const thrown = new Error('boom');
    viewport.mutate(() => {
      throw thrown;
    });
    viewport.flush();
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/^\[page-runtime\] task-failed: expected .*, got "Error: boom"$/),
    );
    expect(error).toHaveBeenCalledWith(thrown);
  });

  it('drains tasks queued by tasks on flush', () => {
    const viewport = createViewport({ platform: fakePlatform().platform, scheduleFrame: () => {} });
    const log: string[] = [];
    viewport.mutate(() => viewport.measure(() => log.push('read after write')));
    viewport.flush();
    expect(log).toEqual(['read after write']);
  });

  it('converts client rects to page boxes with the scroll top', () => {
    const fake = fakePlatform();
    fake.state.scrollTop = 1000;
    const viewport = createViewport({ platform: fake.platform });
    expect(viewport.getPageBox(document.body)).toEqual({
      top: 1100,
      bottom: 1150,
      left: 10,
      right: 310,
      width: 300,
      height: 50,
    });
    expect([viewport.getScrollTop(), viewport.getHeight(), viewport.getWidth(), viewport.getDocumentHeight()]).toEqual([
      1000, 800, 400, 5000,
    ]);
  });

  it('fans one scroll and one resize listener out to subscribers', () => {
    const fake = fakePlatform();
    const viewport = createViewport({ platform: fake.platform });
    const first = vi.fn();
    const second = vi.fn();
    const onResize = vi.fn();
    const removeFirst = viewport.onScroll(first);
    viewport.onScroll(second);
    viewport.onResize(onResize);
    fake.scroll();
    removeFirst();
    fake.scroll();
    fake.resize();
    expect(fake.state.scrollListenerCount).toBe(1);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    expect(onResize).toHaveBeenCalledTimes(1);
  });

  it('is scrolling until the idle delay after the last scroll event', () => {
    vi.useFakeTimers();
    const fake = fakePlatform();
    const viewport = createViewport({ platform: fake.platform });
    expect(viewport.isScrolling()).toBe(false);
    fake.scroll();
    vi.advanceTimersByTime(SCROLL_IDLE_MS - 1);
    fake.scroll();
    vi.advanceTimersByTime(SCROLL_IDLE_MS - 1);
    expect(viewport.isScrolling()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(viewport.isScrolling()).toBe(false);
  });

  it('resolves whenScrollIdle once scrolling stops', async () => {
    vi.useFakeTimers();
    const fake = fakePlatform();
    const viewport = createViewport({ platform: fake.platform });
    await viewport.whenScrollIdle();
    fake.scroll();
    let isIdle = false;
    const idle = viewport.whenScrollIdle().then(() => (isIdle = true));
    await vi.advanceTimersByTimeAsync(SCROLL_IDLE_MS - 1);
    expect(isIdle).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await idle;
    expect(isIdle).toBe(true);
  });

  it('schedules frames with requestAnimationFrame, or a timer in a hidden document', () => {
    vi.useFakeTimers();
    const requestFrame = vi.fn();
    vi.stubGlobal('requestAnimationFrame', requestFrame);
    const viewport = createViewport({ platform: fakePlatform().platform });
    const task = vi.fn();
    viewport.measure(task);
    expect(requestFrame).toHaveBeenCalledOnce();
    requestFrame.mock.calls[0]?.[0]();
    expect(task).toHaveBeenCalledOnce();

    vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    viewport.mutate(task);
    expect(requestFrame).toHaveBeenCalledOnce();
    vi.runAllTimers();
    expect(task).toHaveBeenCalledTimes(2);
  });
});

describe('browserPlatform', () => {
  it('reads Chromium metrics from the window and the root element', () => {
    const element = document.createElement('div');
    element.style.margin = '12px 0 8px';
    document.body.append(element);
    const scrollBy = vi.fn();
    const win = {
      document: { documentElement: { clientWidth: 390, scrollHeight: 4321 } },
      scrollY: 250,
      innerHeight: 700,
      scrollBy,
      getComputedStyle: (target: Element) => window.getComputedStyle(target),
    } as unknown as Window;
    const platform = browserPlatform(win);
    expect([
      platform.getScrollTop(),
      platform.getViewportHeight(),
      platform.getViewportWidth(),
      platform.getDocumentHeight(),
    ]).toEqual([250, 700, 390, 4321]);
    expect(platform.getMargins(element)).toEqual({ top: 12, bottom: 8 });
    platform.scrollBy(-40);
    expect(scrollBy).toHaveBeenCalledWith({ top: -40, behavior: 'instant' });
    element.remove();
  });

  it('adds passive scroll and resize listeners that can be removed', () => {
    const add = vi.spyOn(window, 'addEventListener');
    const platform = browserPlatform(window);
    const onScroll = vi.fn();
    const onResize = vi.fn();
    const removeScroll = platform.addScrollListener(onScroll);
    const removeResize = platform.addResizeListener(onResize);
    expect(add).toHaveBeenCalledWith('scroll', onScroll, { passive: true });
    window.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('resize'));
    removeScroll();
    removeResize();
    window.dispatchEvent(new Event('scroll'));
    window.dispatchEvent(new Event('resize'));
    expect(onScroll).toHaveBeenCalledOnce();
    expect(onResize).toHaveBeenCalledOnce();
  });

  it('measures an element rect through getBoundingClientRect', () => {
    const element = document.createElement('div');
    const rect = { top: 1, bottom: 2, left: 3, right: 4, width: 1, height: 1 } as DOMRect;
    vi.spyOn(element, 'getBoundingClientRect').mockReturnValue(rect);
    expect(browserPlatform(window).getBoundingClientRect(element)).toBe(rect);
  });
});
