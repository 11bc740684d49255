// Names a profile's call frame after the source it was built from when its file has a source map
// beside it (our dist/cdn files): "page-consent-0.1.js T (src/consent/parts.ts:42)" instead of a
// minified name and a column of a one-line file. Other frames keep describeFrame's name.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { describeFrame, fileOf } from '../lib/cpu-profile.mjs';

/** `localFileOf(url)` gives the file a URL is served from, or null. */
export function createFrameNamer(localFileOf) {
  const maps = new Map();
  const mapOf = (url) => {
    if (!maps.has(url)) {
      const file = localFileOf(url);
      const mapFile = file ? `${file}.map` : null;
      maps.set(
        url,
        mapFile && existsSync(mapFile)
          ? { dir: dirname(mapFile), map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) }
          : null,
      );
    }
    return maps.get(url);
  };
  return (callFrame) => {
    const found = callFrame.functionName ? mapOf(callFrame.url) : null;
    const entry = found?.map.findEntry(callFrame.lineNumber, callFrame.columnNumber);
    if (!entry?.originalSource) return describeFrame(callFrame);
    const source = relative(process.cwd(), resolve(found.dir, entry.originalSource));
    return `${fileOf(callFrame.url)} ${callFrame.functionName} (${source}:${entry.originalLine + 1})`;
  };
}
