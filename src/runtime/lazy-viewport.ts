/**
 * The viewport service as the runtime core ships it: the synchronous reads (scroll top, sizes,
 * page boxes) answer at once from the window, and the per-frame batching and the scroll and
 * resize tracking are the viewport part (`v0/page-runtime-viewport.<hash>.js`), requested at the
 * first `measure`, `mutate`, `onScroll` or `onResize` (or by the change-size arbiter). Tasks and
 * listeners given before it arrives are handed to it in order; without the part (one
 * diagnostic) they never run, and nothing else waits for them.
 */
import type { Viewport, ViewportPlatform } from './viewport.ts';
import type { ViewportService } from './types.ts';

export type ViewportPart = { readonly viewport: Viewport; readonly platform: ViewportPlatform };

export function createLazyViewport(win: Window, load: () => Promise<ViewportPart | undefined>): ViewportService {
  const root = win.document.documentElement;
  let loaded: Viewport | undefined;
  /** Runs `use` with the part's viewport: at once once it is there, else when it arrives. */
  const withViewport = (use: (viewport: Viewport) => void) => {
    if (loaded) return use(loaded);
    load().then((part) => part && use((loaded = part.viewport)));
  };
  const subscribe = (name: 'onScroll' | 'onResize') => (listener: () => void) => {
    let off: (() => void) | undefined;
    let isOff = false;
    withViewport((viewport) => isOff || (off = viewport[name](listener)));
    return () => {
      isOff = true;
      off?.();
    };
  };
  return {
    measure: (task) => withViewport((viewport) => viewport.measure(task)),
    mutate: (task) => withViewport((viewport) => viewport.mutate(task)),
    getScrollTop: () => win.scrollY,
    getHeight: () => win.innerHeight,
    // Layout width without the vertical scrollbar.
    getWidth: () => root.clientWidth,
    getDocumentHeight: () => root.scrollHeight,
    getPageBox(element) {
      const { top, bottom, left, right, width, height } = element.getBoundingClientRect();
      return { top: top + win.scrollY, bottom: bottom + win.scrollY, left, right, width, height };
    },
    onScroll: subscribe('onScroll'),
    onResize: subscribe('onResize'),
  };
}
