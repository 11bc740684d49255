/**
 * When the second layer's elements are built: in a task of their own once the session starts
 * (after the first layer's paint), so Customize only attaches them; at once when Customize
 * comes first. Either way they are built once (docs/decisions/server-hosted-cmp.md).
 */
import type { Messages } from './page-config.ts';
import { buildSecondLayer, type SecondLayerModel } from './second-layer.ts';
import type { Switches } from './switches.ts';

/** The session's `render`: attaches the layer, built ahead, into `container`. */
export function renderer(
  model: SecondLayerModel,
  state: Switches,
  messages: Messages,
): (container: HTMLElement) => void {
  let parts: HTMLElement[] | null = null;
  const build = () => (parts ??= buildSecondLayer(model, state, messages));
  setTimeout(build, 0);
  return (container) => container.replaceChildren(...build());
}
