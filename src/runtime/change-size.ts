/**
 * The change-size arbiter service: measures in a measure task, decides with the pure rules,
 * applies in a mutate task. Never leaves a caller waiting: a failing task rejects.
 */
import { decideChangeSize } from './change-size-decision.ts';
import type { Margins, PageRuntime } from './types.ts';
import type { Viewport, ViewportPlatform } from './viewport.ts';

export type ChangeSizeOptions = {
  viewport: Pick<
    Viewport,
    | 'measure'
    | 'mutate'
    | 'getPageBox'
    | 'getScrollTop'
    | 'getHeight'
    | 'getDocumentHeight'
    | 'isScrolling'
    | 'whenScrollIdle'
  >;
  platform: Pick<ViewportPlatform, 'scrollBy' | 'getMargins'>;
  isDocumentHidden: () => boolean;
  /** Time (same clock as `now`) of the user's last interaction with the element; -Infinity when none. */
  lastInteraction: (element: Element) => number;
  now: () => number;
};

export type AttemptChangeSize = PageRuntime['attemptChangeSize'];

export function createChangeSize(options: ChangeSizeOptions): AttemptChangeSize {
  const { viewport, platform } = options;
  const inPhase = <T>(phase: (task: () => void) => void, task: () => T) =>
    new Promise<T>((resolve, reject) =>
      phase(() => {
        try {
          resolve(task());
        } catch (error) {
          reject(error);
        }
      }),
    );

  return async (element, height, width, margins) => {
    // Measures the element and decides; for an above-viewport change also the vertical delta.
    const check = () =>
      inPhase(viewport.measure, () => {
        const box = viewport.getPageBox(element);
        const decision = decideChangeSize({
          box,
          newHeight: height,
          newWidth: width,
          margins,
          viewportTop: viewport.getScrollTop(),
          viewportHeight: viewport.getHeight(),
          documentHeight: viewport.getDocumentHeight(),
          isDocumentHidden: options.isDocumentHidden(),
          msSinceInteraction: options.now() - options.lastInteraction(element),
        });
        if (decision !== 'apply-above') return { decision, delta: 0 };
        const current = platform.getMargins(element);
        const shift = (next: number | undefined, now: number) => (next === undefined ? 0 : next - now);
        return {
          decision,
          delta: height - box.height + shift(margins?.top, current.top) + shift(margins?.bottom, current.bottom),
        };
      });
    let { decision, delta } = await check();
    while (decision === 'apply-above' && viewport.isScrolling()) {
      await viewport.whenScrollIdle();
      ({ decision, delta } = await check());
    }
    if (decision === 'refuse') throw new Error('refused');
    await inPhase(viewport.mutate, () => {
      applySize(element.style, height, width, margins);
      if (delta) platform.scrollBy(delta);
    });
  };
}

function applySize(style: CSSStyleDeclaration, height: number, width: number | undefined, margins: Margins = {}): void {
  style.height = height + 'px';
  if (width !== undefined) style.width = width + 'px';
  for (const [side, value] of Object.entries(margins)) {
    if (value !== undefined) style.setProperty('margin-' + side, value + 'px');
  }
}
