/** page-consent-cmp-0.1.js: the promptUiSrc iframe protocol, loaded by `<page-consent>` when its config has a promptUiSrc. */
import type { PageRuntime } from '../runtime/index.ts';
import { CMP_SERVICE } from '../consent/cmp-service.ts';
import { createPromptFrame } from '../consent/prompt-frame.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) => page.provideService(CMP_SERVICE, createPromptFrame));
