/**
 * A scripted `PageRuntime` for auto-ads unit tests: a block layout computed from `data-h`
 * heights (ads from their inline height and margins, 0 while out of flow), frames flushed by
 * the test, and a change-size arbiter whose verdict the test chooses.
 */
import { vi } from 'vitest';
import type { DiagnosticLevel } from '../../../src/runtime/diagnostics.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import type { Margins, PageBox, PageRuntime } from '../../../src/runtime/types.ts';

const px = (value: string) => Number.parseFloat(value) || 0;

function isOutOfFlow(element: HTMLElement): boolean {
  return element.style.position === 'absolute' || element.style.position === 'fixed';
}

/** Outer height: margins plus the height from `data-h`, an inline height, or the children. */
export function outerHeight(element: Element): number {
  const { style } = element as HTMLElement;
  if (isOutOfFlow(element as HTMLElement)) return 0;
  const own = element.hasAttribute('data-h')
    ? Number(element.getAttribute('data-h'))
    : style.height
      ? px(style.height)
      : [...element.children].reduce((sum, child) => sum + outerHeight(child), 0);
  return own + px(style.marginTop) + px(style.marginBottom);
}

export function pageBox(element: Element): PageBox {
  let top = px((element as HTMLElement).style.marginTop);
  for (let node: Element | null = element; node && node !== document.documentElement; node = node.parentElement) {
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
      top += outerHeight(sibling);
    if (node !== element) top += px((node as HTMLElement).style.marginTop);
  }
  const isOut = isOutOfFlow(element as HTMLElement);
  const height = isOut
    ? 0
    : outerHeight(element) -
      px((element as HTMLElement).style.marginTop) -
      px((element as HTMLElement).style.marginBottom);
  return { top, bottom: top + height, left: 0, right: 300, width: 300, height };
}

export type FakePage = PageRuntime & {
  /** Runs frames (all measures, then all mutates) and lets promises settle, until idle. */
  settle(): Promise<void>;
  scrollTop: number;
  viewportHeight: number;
  /** Default 1024 (the density rule applies below 768). */
  viewportWidth: number;
  /** Measure tasks queued by callers other than the fake arbiter. */
  measureTasks: number;
  /** The arbiter's verdict; the default applies at or below the bottom 10% of the viewport. */
  decide: (element: HTMLElement, box: PageBox) => boolean;
  reports: { code: string; level: string | undefined; got: string }[];
};

export function createFakePage(): FakePage {
  let measures: (() => void)[] = [];
  let mutates: (() => void)[] = [];
  const phase = (queue: () => (() => void)[]) => (task: () => void) => void queue().push(task);
  const arbiterMeasure = phase(() => measures);
  const page = {
    version: 'test',
    scrollTop: 0,
    viewportHeight: 500,
    viewportWidth: 1024,
    measureTasks: 0,
    reports: [] as FakePage['reports'],
    decide: (_element: HTMLElement, box: PageBox) => box.top >= page.scrollTop + page.viewportHeight * 0.9,
    viewport: {
      measure(task: () => void) {
        page.measureTasks++;
        measures.push(task);
      },
      mutate: phase(() => mutates),
      getScrollTop: () => page.scrollTop,
      getHeight: () => page.viewportHeight,
      getWidth: () => page.viewportWidth,
      getDocumentHeight: () => pageBox(document.body).bottom,
      getPageBox: (element: Element) => pageBox(element),
      onScroll: () => () => {},
      onResize: () => () => {},
    },
    attemptChangeSize(element: HTMLElement, height: number, width?: number, margins?: Margins) {
      return new Promise<void>((resolve, reject) =>
        arbiterMeasure(() => {
          if (!page.decide(element, pageBox(element))) return reject(new Error('refused'));
          page.viewport.mutate(() => {
            element.style.height = height + 'px';
            if (width !== undefined) element.style.width = width + 'px';
            if (margins?.top !== undefined) element.style.marginTop = margins.top + 'px';
            if (margins?.bottom !== undefined) element.style.marginBottom = margins.bottom + 'px';
            resolve();
          });
        }),
      );
    },
    report(_source: Element | string, d: { code: string; got: string }, level?: string) {
      page.reports.push({ code: d.code, level, got: d.got });
    },
    define: vi.fn(),
    PageElement: FakePageElement,
    triggerAction: vi.fn(),
    whenBuilt: () => Promise.resolve(),
    registerAction: vi.fn(),
    registerMacro: vi.fn(),
    expandUrl: async (url: string) => url,
    provideService: vi.fn(),
    whenService: () => new Promise(() => {}),
    setConsentProvider: vi.fn(),
    async settle() {
      for (let idle = 0; idle < 3; ) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!measures.length && !mutates.length) {
          idle++;
          continue;
        }
        idle = 0;
        const reads = measures;
        const writes = mutates;
        measures = [];
        mutates = [];
        for (const task of [...reads, ...writes]) task();
      }
    },
  };
  return page as unknown as FakePage;
}

/** `count` paragraphs of `height` px, ids `${prefix}0`, `${prefix}1`, ... */
export function paragraphs(count: number, prefix = 'p', height = 100): string {
  return Array.from({ length: count }, (_, i) => `<p id="${prefix}${i}" data-h="${height}">text ${i}</p>`).join('');
}

/** An article of `count` paragraphs of 100 px, ids p0, p1, ... */
export function article(count: number): string {
  return `<article>${paragraphs(count)}</article>`;
}

/** The runtime's element base, reduced to what page-auto-ads uses. */
export class FakePageElement {
  readonly element: HTMLElement;
  readonly runtime: PageRuntime;
  constructor(element: HTMLElement, runtime: PageRuntime) {
    this.element = element;
    this.runtime = runtime;
  }
  buildCallback(): void {}
  layoutCallback(): void {}
  unlayoutCallback(): void {}
  isLayoutSupported(): boolean {
    return true;
  }
  isBlockable(): boolean {
    return true;
  }
  report(d: Diagnostic, level?: DiagnosticLevel): void {
    this.runtime.report(this.element, d, level);
  }
  dispatch(name: string, detail?: unknown): void {
    const event = new CustomEvent(name, { bubbles: true, detail });
    this.element.dispatchEvent(event);
    this.runtime.triggerAction(this.element, name, event);
  }
}
