/**
 * Viewport service: measure/mutate batching per frame (all reads, then all writes) and
 * scroll/resize tracking. Layout reads go through an injected `ViewportPlatform`, so unit
 * tests script rects and flush frames synchronously.
 */
import { report as reportDefault } from './diagnostics.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { PageBox, PageRuntime, ViewportService } from './types.ts';

export type ViewportPlatform = {
  getBoundingClientRect(element: Element): PageBox;
  /** Current vertical margins in px (used to compensate scroll exactly). */
  getMargins(element: Element): { top: number; bottom: number };
  getScrollTop(): number;
  getViewportHeight(): number;
  getViewportWidth(): number;
  getDocumentHeight(): number;
  scrollBy(dy: number): void;
  addScrollListener(listener: () => void): () => void;
  addResizeListener(listener: () => void): () => void;
};

export type Viewport = ViewportService & {
  /** true until SCROLL_IDLE_MS after the last scroll event. */
  isScrolling(): boolean;
  whenScrollIdle(): Promise<void>;
  /** Runs frames synchronously until both queues are empty (tests). */
  flush(): void;
};

export type ViewportOptions = {
  platform: ViewportPlatform;
  scheduleFrame?: (callback: () => void) => void;
  report?: PageRuntime['report'];
};

export const SCROLL_IDLE_MS = 150;

export function browserPlatform(win: Window): ViewportPlatform {
  const root = win.document.documentElement;
  const listen = (type: string) => (listener: () => void) => {
    win.addEventListener(type, listener, { passive: true });
    return () => win.removeEventListener(type, listener);
  };
  return {
    getBoundingClientRect: (element) => element.getBoundingClientRect(),
    getMargins: (element) => {
      const style = win.getComputedStyle(element);
      return { top: Number.parseFloat(style.marginTop) || 0, bottom: Number.parseFloat(style.marginBottom) || 0 };
    },
    getScrollTop: () => win.scrollY,
    getViewportHeight: () => win.innerHeight,
    // Layout width without the vertical scrollbar.
    getViewportWidth: () => root.clientWidth,
    getDocumentHeight: () => root.scrollHeight,
    // Instant even under `scroll-behavior: smooth`, so compensation lands in the same frame.
    scrollBy: (dy) => win.scrollBy({ top: dy, behavior: 'instant' }),
    addScrollListener: listen('scroll'),
    addResizeListener: listen('resize'),
  };
}

/** requestAnimationFrame does not fire in hidden documents; fall back to a timer there. */
const scheduleDefault = (callback: () => void) => {
  document.hidden ? setTimeout(callback) : requestAnimationFrame(callback);
};

export function createViewport(options: ViewportOptions): Viewport {
  const { platform, scheduleFrame = scheduleDefault, report = reportDefault } = options;
  let measures: (() => void)[] = [];
  let mutates: (() => void)[] = [];
  let isScheduled = false;
  let isRunning = false;
  let isScrolling = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let idleWaiters: (() => void)[] = [];
  const scrollListeners = new Set<() => void>();
  const resizeListeners = new Set<() => void>();

  const run = (task: () => void) => {
    try {
      task();
    } catch (error) {
      if (DEV) console.error(error);
      report('page-runtime', diagnostic('task-failed', 'a task that completes', String(error)));
    }
  };
  const frame = () => {
    const reads = measures;
    const writes = mutates;
    measures = [];
    mutates = [];
    isRunning = true;
    reads.forEach(run);
    writes.forEach(run);
    isRunning = false;
    // Tasks queued during this frame run in the next one.
    if (measures.length || mutates.length) schedule();
  };
  const schedule = () => {
    if (isScheduled || isRunning) return;
    isScheduled = true;
    scheduleFrame(() => {
      isScheduled = false;
      frame();
    });
  };
  const subscribe = (listeners: Set<() => void>) => (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  platform.addScrollListener(() => {
    isScrolling = true;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      isScrolling = false;
      idleWaiters.forEach(run);
      idleWaiters = [];
    }, SCROLL_IDLE_MS);
    scrollListeners.forEach(run);
  });
  platform.addResizeListener(() => resizeListeners.forEach(run));

  return {
    measure(task) {
      measures.push(task);
      schedule();
    },
    mutate(task) {
      mutates.push(task);
      schedule();
    },
    getScrollTop: () => platform.getScrollTop(),
    getHeight: () => platform.getViewportHeight(),
    getWidth: () => platform.getViewportWidth(),
    getDocumentHeight: () => platform.getDocumentHeight(),
    getPageBox(element) {
      const rect = platform.getBoundingClientRect(element);
      const scrollTop = platform.getScrollTop();
      const { left, right, width, height } = rect;
      return { top: rect.top + scrollTop, bottom: rect.bottom + scrollTop, left, right, width, height };
    },
    onScroll: subscribe(scrollListeners),
    onResize: subscribe(resizeListeners),
    isScrolling: () => isScrolling,
    whenScrollIdle: () => new Promise((resolve) => (isScrolling ? idleWaiters.push(resolve) : resolve())),
    flush() {
      while (measures.length || mutates.length) frame();
    },
  };
}
