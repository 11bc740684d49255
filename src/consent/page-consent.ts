/**
 * page-consent-0.1.js: defines `<page-consent>` once the runtime is available. Its parts load when
 * the page or the reader needs them (src/consent/parts.ts); on a return visit `v0.js` has already
 * started what the stored decision allows (docs/decisions/consent-return-record.md).
 */
import type { PageRuntime } from '../runtime/index.ts';
import { createConsentElement } from './element.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
// Known only while this script runs: the directory the parts and the TCF and GPP bundles load from.
const scriptUrl =
  (document.currentScript as HTMLScriptElement | null)?.src ??
  document.querySelector<HTMLScriptElement>('script[custom-element="page-consent"]')?.src ??
  '';
(scope.PAGE ||= [] as Queue).push((page) => page.define('page-consent', createConsentElement(page, scriptUrl)));
