/**
 * Base class of every page component. Subclasses override the callbacks; the runtime's
 * lifecycle calls them: connected -> consent gate -> build -> layout (near the viewport) ->
 * unlayout (withdrawal or removal).
 */
import type { DiagnosticLevel } from './diagnostics.ts';
import type { Diagnostic } from '../wire/diagnostic.ts';
import type { ActionHandler, Layout, PageElementBase, PageRuntime } from './types.ts';

export class PageElement implements PageElementBase {
  /** Set by the runtime before build. */
  layout: Layout = 'container';
  readonly element: HTMLElement;
  readonly runtime: PageRuntime;

  constructor(element: HTMLElement, runtime: PageRuntime) {
    this.element = element;
    this.runtime = runtime;
  }

  buildCallback(): void | Promise<void> {}

  layoutCallback(): void | Promise<void> {}

  unlayoutCallback(): void {}

  isLayoutSupported(_layout: Layout): boolean {
    return true;
  }

  isBlockable(): boolean {
    return true;
  }

  getLayout(): Layout {
    return this.layout;
  }

  report(d: Diagnostic, level?: DiagnosticLevel): void {
    this.runtime.report(this.element, d, level);
  }

  registerAction(name: string, handler: ActionHandler): void {
    this.runtime.registerAction(this.element, name, handler);
  }

  /** Fires a bubbling DOM event and the element's own `on="<name>:..."` handlers. */
  dispatch(name: string, detail?: unknown): void {
    const event = new CustomEvent(name, { bubbles: true, detail });
    this.element.dispatchEvent(event);
    this.runtime.triggerAction(this.element, name, event);
  }
}
