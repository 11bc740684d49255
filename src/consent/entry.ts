/**
 * page-consent-0.1.js: starts the return-visit fast path at once, then defines `<page-consent>`
 * once the runtime is available.
 */
import type { PageRuntime } from '../runtime/index.ts';
import { createConsentElement } from './element.ts';
import { startFastPath } from './fast-path.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
// Known only while this script runs: the directory the lazy TCF and GPP bundles load from.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? document.querySelector<HTMLScriptElement>('script[custom-element="page-consent"]')?.src ?? '';
// First the fast path: with `v0.js` already there, the push below builds the element at once.
startFastPath();
(scope.PAGE ||= [] as Queue).push((page) => page.define('page-consent', createConsentElement(page, scriptUrl)));
