/** The config script of `<page-consent>`: its JSON; undefined unless there is exactly one valid script. */
export function readConfigJson(element: Element): unknown {
  const scripts = element.querySelectorAll<HTMLScriptElement>(':scope>script[type="application/json"]');
  try {
    return scripts.length === 1 ? JSON.parse(scripts[0]!.text) : undefined;
  } catch {}
}
