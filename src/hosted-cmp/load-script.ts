/**
 * Loads one of the hosted prompt's own scripts with the page's nonce (the frame's CSP allows
 * nonced scripts only), with a time-out: it resolves once the script ran, rejects when it
 * fails to load or takes longer than `timeoutMs`.
 */
export function loadScript(src: string, nonce: string, timeoutMs = 8000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${src}: timed out`)), timeoutMs);
    const script = Object.assign(document.createElement('script'), { src, nonce });
    script.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    script.onerror = () => {
      clearTimeout(timer);
      reject(new Error(`${src}: did not load`));
    };
    document.head.append(script);
  });
}
