/**
 * The server's own reading of its TCF files: the GVL named by `TCF_VENDOR_LIST`, the IAB
 * translations in `TCF_TRANSLATIONS_DIR` and Google's ATP list named by `GOOGLE_ATP_LIST` (a CSV),
 * parsed with the shared readers and kept until the file changes (size and mtime). The hosted
 * prompt summarises its first layer from them and lists the ATPs, and the admin API checks an
 * instance's `tcf` settings against the GVL and the ATP list. The ATP list's rows that the
 * reader leaves out are logged once per version of the file.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type GvlTranslation, parseTranslation } from '../src/wire/gvl-translation.ts';
import { type GvlJson, parseGvl } from '../src/wire/gvl.ts';
import { type GoogleAtp, parseGoogleAtpList } from '../src/wire/google-atps.ts';
import { formatDiagnostic } from '../src/wire/diagnostic.ts';
import type { AppContext } from './routes/context.ts';

export type TcfFiles = {
  vendorList(): Promise<GvlJson | null>;
  /**
   * Google's ATP list (GOOGLE_ATP_LIST), or null: unset, missing or not the CSV Google publishes.
   * `warn` gets the reader's diagnostics, once per version of the file.
   */
  atpList(warn?: (line: string) => void): Promise<GoogleAtp[] | null>;
  /** The translation file for an IAB language code (`de`, `pt-pt`), or null. */
  translation(iabLanguage: string): Promise<GvlTranslation | null>;
  /** Its path, when the folder is configured and the code well-formed. */
  translationPath(iabLanguage: string): string | null;
};

export const iabLanguagePattern = /^[a-z]{2}(-[a-z]{2,4})?$/;

function cachedParse<T>(
  parse: (json: unknown) => T | null,
  decode: (text: string) => unknown = JSON.parse,
): (file: string) => Promise<T | null> {
  const cache = new Map<string, { version: string; value: Promise<T | null> }>();
  return async (file) => {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const version = `${info.size}:${info.mtimeMs}`;
    const hit = cache.get(file);
    if (hit?.version === version) return hit.value;
    const value = readFile(file, 'utf8')
      .then(
        (text) => parse(decode(text)),
        () => null,
      )
      .catch(() => null);
    cache.set(file, { version, value });
    return value;
  };
}

const filesByContext = new WeakMap<AppContext, TcfFiles>();

export function tcfFilesOf(context: AppContext): TcfFiles {
  const known = filesByContext.get(context);
  if (known) return known;
  const gvl = cachedParse((json) => parseGvl(json).value);
  const translation = cachedParse((json) => parseTranslation(json).value);
  const atps = cachedParse(
    (text) => parseGoogleAtpList(text as string),
    (text) => text,
  );
  const reported = new WeakSet<object>();
  const translationPath = (code: string) =>
    context.tcfTranslationsDir && iabLanguagePattern.test(code)
      ? join(context.tcfTranslationsDir, `purposes-${code}.json`)
      : null;
  const files: TcfFiles = {
    vendorList: async () => (context.tcfVendorList ? gvl(context.tcfVendorList) : null),
    atpList: async (warn) => {
      const parsed = context.googleAtpList ? await atps(context.googleAtpList) : null;
      if (parsed && warn && !reported.has(parsed)) {
        reported.add(parsed);
        for (const d of parsed.diagnostics) warn(formatDiagnostic('GOOGLE_ATP_LIST', d));
      }
      return parsed?.value ?? null;
    },
    translation: async (code) => {
      const path = translationPath(code);
      return path ? translation(path) : null;
    },
    translationPath,
  };
  filesByContext.set(context, files);
  return files;
}
