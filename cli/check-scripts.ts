/**
 * Scripts (docs/architecture.md, "Bundles and their parts"): `v0.js` on every page that uses a component or a blocking marker, and for each extension the page uses exactly its
 * `<script async custom-element="page-x" src=".../v0/page-x-0.1.js">`, none it does not use.
 */
import { find, type Finding } from './finding.ts';
import { getAttribute, hasAttribute, type HtmlElement, locate } from './html-tree.ts';
import type { Page } from './page.ts';

const VERSION = '0.1';

/** Extension -> the elements that need it. */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'page-consent': ['page-consent', 'page-story-consent'],
  'page-auto-ads': ['page-auto-ads'],
  'page-geo': ['page-geo'],
};

function readPath(src: string, baseUrl: string): string {
  try {
    return new URL(src, baseUrl).pathname;
  } catch {
    return src;
  }
}

function checkAsync(script: HtmlElement, findings: Finding[]): void {
  if (!hasAttribute(script, 'async'))
    findings.push(find('validate-script-not-async', 'an async script', getAttribute(script, 'src'), locate(script)));
}

function checkExtension(script: HtmlElement, name: string, page: Page, findings: Finding[]): void {
  const users = Object.hasOwn(EXTENSIONS, name) ? (EXTENSIONS[name] ?? []) : [];
  if (!page.elements.some((element) => users.includes(element.tagName))) {
    findings.push(
      find(
        'validate-extension-unused',
        `a script for an extension the page uses (${Object.keys(EXTENSIONS).join(', ')})`,
        name,
        locate(script),
      ),
    );
  }
  const src = getAttribute(script, 'src') ?? '';
  const version = new RegExp(`/v0/${name}-(\\d+(?:\\.\\d+)*)\\.js$`).exec(readPath(src, page.baseUrl))?.[1];
  if (version !== VERSION)
    findings.push(find('validate-extension-version', `src ".../v0/${name}-${VERSION}.js"`, src, locate(script, 'src')));
}

export function checkScripts(page: Page): Finding[] {
  const findings: Finding[] = [];
  const scripts = page.elements.filter((element) => element.tagName === 'script' && hasAttribute(element, 'src'));
  const loaded = new Set<string>();
  let hasRuntime = false;
  for (const script of scripts) {
    const name = getAttribute(script, 'custom-element');
    const isRuntime = name === null && /(^|\/)v0\.js$/.test(readPath(getAttribute(script, 'src') ?? '', page.baseUrl));
    if (name === null && !isRuntime) continue;
    checkAsync(script, findings);
    if (name === null) hasRuntime = true;
    else {
      loaded.add(name);
      checkExtension(script, name, page, findings);
    }
  }
  const usesRuntime = page.elements.some(
    (element) => element.tagName.startsWith('page-') || hasAttribute(element, 'data-block-on-consent'),
  );
  if (!hasRuntime && usesRuntime)
    findings.push(
      find('validate-runtime-missing', '<script async src=".../v0.js">', 'no v0.js script', { line: 1, column: 1 }),
    );
  for (const [name, users] of Object.entries(EXTENSIONS)) {
    const user = page.elements.find((element) => users.includes(element.tagName));
    if (user && !loaded.has(name)) {
      findings.push(
        find(
          'validate-extension-missing',
          `<script async custom-element="${name}" src=".../v0/${name}-${VERSION}.js">`,
          'no script',
          locate(user),
        ),
      );
    }
  }
  return findings;
}
