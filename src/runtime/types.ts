/**
 * The public surface of the runtime (`v0.js`). Extensions receive a `PageRuntime` through
 * `(self.PAGE = self.PAGE || []).push(page => ...)` and use nothing else from the runtime,
 * so the runtime code is shipped once, in v0.js.
 */
import type { DiagnosticLevel } from './diagnostics.ts';
import type { Diagnostic } from '../wire/diagnostic.ts';
import type { ReturnLines } from '../wire/return-record.ts';
import type { ActionValue } from '../wire/actions.ts';
import type { BlockPolicy, BlockRequest } from '../wire/block-markers.ts';
import type { ConsentChangeState, ConsentSnapshot } from '../wire/consent.ts';
import type { Layout } from '../wire/layout.ts';
import type { ConsentMetadata, PurposeConsents, SharedData } from '../wire/consent.ts';

// Wire types the runtime's API speaks (defined in src/wire, which imports nothing of the runtime).
export type { ActionValue, BlockPolicy, BlockRequest, ConsentChangeState, ConsentSnapshot, Layout };

/** A page box in document coordinates (CSS px, relative to the top of the document). */
export type PageBox = {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
  readonly width: number;
  readonly height: number;
};

export type ActionArguments = Readonly<Record<string, ActionValue>>;
export type ActionHandler = (args: ActionArguments, event: Event | null) => void;

export type Margins = {
  readonly top?: number;
  readonly bottom?: number;
  readonly left?: number;
  readonly right?: number;
};

/** allow: build now; deny: do not build (and unlayout if built); pending: wait for a change. */
export type GateDecision = 'allow' | 'deny' | 'pending';

export type PolicyState = 'sufficient' | 'insufficient' | 'unknown_not_required' | 'unknown';

/** Implemented by the consent extension and installed with `page.setConsentProvider`. */
export type ConsentProvider = {
  decide(request: BlockRequest): GateDecision;
  /** Resolves once the policy has a decision (waits for the user, the server or a timeout). */
  getPolicyState(policyId: string): Promise<PolicyState>;
  snapshot(): ConsentSnapshot;
  /** Resolves once the checkConsentHref answer (or its failure) is applied; at once without one. */
  whenChecked(): Promise<void>;
  /** Called whenever any decision or the snapshot may have changed. */
  subscribe(listener: () => void): () => void;
  /** The latest receipt id for this reader (docs/server.md, "Proving consent"), or null. */
  getReceipt?(): Promise<string | null>;
};

/** The vendor API of docs/consent.md, "Events and vendor API" (`page.consent`). */
export type ConsentApi = {
  getPolicyState(policyId?: string): Promise<PolicyState | null>;
  getSharedData(policyId?: string): Promise<SharedData | null>;
  getConsentString(): Promise<string | null>;
  getPurposeConsents(): Promise<PurposeConsents | null>;
  getMetadata(): Promise<ConsentMetadata | null>;
  onChange(callback: (snapshot: ConsentSnapshot) => void): () => void;
  getReceipt(): Promise<string | null>;
};

export type StorageService = {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  remove(key: string): void;
  /** false when the in-memory fallback is in use. */
  readonly isPersistent: boolean;
};

export type ViewportService = {
  measure(task: () => void): void;
  mutate(task: () => void): void;
  getScrollTop(): number;
  getHeight(): number;
  getWidth(): number;
  getDocumentHeight(): number;
  /** Page box of an element; call inside a measure task. */
  getPageBox(element: Element): PageBox;
  onScroll(listener: () => void): () => void;
  onResize(listener: () => void): () => void;
};

export type MacroResolver = (argument: string | undefined) => string | Promise<string>;

export type PageElementConstructor = new (element: HTMLElement, runtime: PageRuntime) => PageElementInstance;

/** What the runtime calls on an element implementation (see PageElement in element.ts). */
export type PageElementInstance = {
  readonly element: HTMLElement;
  buildCallback(): void | Promise<void>;
  layoutCallback(): void | Promise<void>;
  unlayoutCallback(): void;
  isLayoutSupported(layout: Layout): boolean;
  /** false for elements the consent gate must never block (page-consent itself). */
  isBlockable(): boolean;
};

/** The base class's instances (src/runtime/element.ts): what a subclass inherits. */
export type PageElementBase = PageElementInstance & {
  /** Set by the runtime before build. */
  layout: Layout;
  readonly runtime: PageRuntime;
  getLayout(): Layout;
  report(d: Diagnostic, level?: DiagnosticLevel): void;
  registerAction(name: string, handler: ActionHandler): void;
  /** Fires a bubbling DOM event and the element's own `on="<name>:..."` handlers. */
  dispatch(name: string, detail?: unknown): void;
};

export type PageRuntime = {
  readonly version: string;
  define(tag: string, implementation: PageElementConstructor): void;
  /** The base class to extend: `class extends page.PageElement { buildCallback() {...} }`. */
  readonly PageElement: new (
    element: HTMLElement,
    runtime: PageRuntime,
  ) => PageElementBase;
  readonly storage: StorageService;
  readonly viewport: ViewportService;
  readonly consent: ConsentApi;
  /** Accepted once, from the `<page-consent>` element's implementation (`owner`); refused otherwise. */
  setConsentProvider(owner: PageElementInstance, provider: ConsentProvider): void;
  /**
   * From the `<page-consent>` element's implementation (`owner`; ignored from any other): until its
   * provider is installed, the gate allows the requests its return record's entry marks `+`
   * (docs/decisions/consent-return-record.md); `onMiss` runs for each request the entry does not know.
   */
  replayConsent(owner: PageElementInstance, lines: ReturnLines, onMiss: () => void): void;
  attemptChangeSize(element: HTMLElement, height: number, width?: number, margins?: Margins): Promise<void>;
  registerAction(element: Element, name: string, handler: ActionHandler): void;
  registerMacro(name: string, resolver: MacroResolver): void;
  /** Only the registered macros in `allowedMacros` when given; `extraMacros` for this call only. */
  expandUrl(
    template: string,
    allowedMacros?: readonly string[],
    extraMacros?: ReadonlyMap<string, MacroResolver>,
  ): Promise<string>;
  report(source: Element | string, diagnostic: Diagnostic, level?: DiagnosticLevel): void;
  /** Resolves when the element's implementation has built. */
  whenBuilt(element: Element): Promise<void>;
  /**
   * A small service registry through which extensions talk without importing each other
   * (page-geo provides `geo`, read by page-consent). `whenService` resolves once provided.
   */
  provideService(name: string, value: unknown): void;
  /**
   * An extension's lazily loaded part `{directory}/{file}.js` (src/browser-shared/parts.ts),
   * registered under `file` up to its first dot: its exports, loaded at most once per page;
   * undefined after one `part-load-failed` diagnostic.
   */
  loadPart<T>(file: string, directory: string, report: (diagnostic: Diagnostic) => void): Promise<T | undefined>;
  whenService(name: string): Promise<unknown>;
  /** Runs the `on` handlers an element declares for a custom event name. */
  triggerAction(element: Element, eventName: string, event: Event | null): void;
};
