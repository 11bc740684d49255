/**
 * A component's JSON config read from the DOM by the one rule of src/wire/config-script.ts
 * (exactly one direct child `<script type="application/json">` holding JSON, else undefined).
 * Shared by the elements and the consent fast path, which runs before the runtime.
 */
import { parseConfigScripts } from '../wire/config-script.ts';

export const readConfigScript = (element: Element): unknown =>
  parseConfigScripts(
    Array.from(
      element.querySelectorAll<HTMLScriptElement>(':scope>script[type="application/json"]'),
      (script) => script.text,
    ),
  );
