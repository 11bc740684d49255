/** page-auto-ads-0.1.js: registers `<page-auto-ads>` with the runtime (the only side effect); its parts load from its directory. */
import type { PageRuntime } from '../runtime/index.ts';
import { createAutoAdsElement } from './element.ts';

type Callback = (page: PageRuntime) => void;
const scope = self as unknown as { PAGE?: { push(callback: Callback): unknown } };
// Known only while this script runs: the directory its parts load from.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;
(scope.PAGE ||= []).push((page) => page.define('page-auto-ads', createAutoAdsElement(page, scriptUrl)));
