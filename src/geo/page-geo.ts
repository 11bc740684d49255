/**
 * page-geo-0.1.js: defines `<page-geo>`. The server replaces the placeholder below with the
 * requester's lowercase country code (or `unknown`); unpatched, the country is unknown.
 */
import type { PageRuntime } from '../runtime/index.ts';
import { createGeoElement } from './element.ts';

const patched = '{{PAGE_GEO_COUNTRY}}';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) => page.define('page-geo', createGeoElement(page, patched)));
