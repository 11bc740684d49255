/**
 * `<page-ad type="doubleclick">`: a Google Publisher Tag slot (`data-slot`, the element's size)
 * in a `<div>`, GPT loaded once per page, non-personalised unless consent is accepted; the
 * returned function destroys the slot (unlayout).
 */
import { diagnostic } from '../../wire/diagnostic.ts';
import type { ContentElement } from '../content-element.ts';
import { loadScriptOnce, readScriptUrl } from './script.ts';

type Slot = { addService(service: object): Slot };
type GoogleTag = {
  cmd: { push(command: () => void): unknown };
  defineSlot(path: string, size: number[], id: string): Slot | null;
  pubads(): { setPrivacySettings(settings: { nonPersonalizedAds: boolean }): void };
  enableServices(): void;
  display(id: string): void;
  destroySlots(slots: Slot[]): void;
};

const SCRIPT = 'https://securepubads.g.doubleclick.net/tag/js/gpt.js';
let count = 0;

/** The element's `width`/`height` attribute, else its laid-out size. */
const sizeOf = (element: HTMLElement, name: 'width' | 'height') =>
  Number(element.getAttribute(name)) ||
  Math[name === 'width' ? 'round' : 'ceil'](element.getBoundingClientRect()[name]);

export function renderDoubleclick(ad: ContentElement, isPersonalized: boolean): (() => void) | undefined {
  const path = ad.element.dataset.slot;
  if (!path) {
    ad.report(diagnostic('missing-attribute', 'a data-slot attribute', path));
    return;
  }
  const url = readScriptUrl(ad, 'doubleclick', SCRIPT);
  if (!url) return;
  const box = document.createElement('div');
  box.id = `page-ad-gpt-${++count}`;
  const size = [sizeOf(ad.element, 'width'), sizeOf(ad.element, 'height')];
  ad.show(box);
  loadScriptOnce('doubleclick', url);
  const tag: GoogleTag = ((window as { googletag?: GoogleTag }).googletag ||= { cmd: [] } as unknown as GoogleTag);
  let slot: Slot | null = null;
  tag.cmd.push(() => {
    slot = box.isConnected ? tag.defineSlot(path, size, box.id) : null;
    if (!slot) return;
    slot.addService(tag.pubads());
    tag.pubads().setPrivacySettings({ nonPersonalizedAds: !isPersonalized });
    tag.enableServices();
    tag.display(box.id);
  });
  return () => {
    tag.cmd.push(() => slot && tag.destroySlots([slot]));
  };
}
