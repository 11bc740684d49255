/** Types of part-names.mjs, for its unit tests. */
export type PartEntry = { readonly in: string; readonly out: string; readonly loads?: readonly string[] };
/** What a bundle that loads parts is built with (`PART_PREFIX`, `PART_HASH`, `PART_NAMES`). */
export type LoaderDefines = { readonly prefix: string; readonly hash: string; readonly names: string };
/** A tree's record of its parts. */
export type PartNames = { readonly files: Record<string, string>; readonly loaders: Record<string, LoaderDefines>; readonly earlier: readonly string[] };

export const HASH_LENGTH: number;
export const PART_NAMES_FILE: string;
/** The hash of the built parts of one bundle, their codes in the order of their output names. */
export function hashOf(codes: readonly string[]): string;
/** The defines of a bundle that loads the parts `loads`, whose shared hash is `hash`. */
export function loaderDefines(loads: readonly string[], hash?: string): LoaderDefines;
/** The output names of `entries` in rounds: each after every part it loads. */
export function buildRounds(entries: readonly Pick<PartEntry, 'out' | 'loads'>[]): string[][];
/** The part files of the previous build of `outdir` (and their maps), by path. */
export function readPreviousParts(outdir: string): Map<string, Buffer>;
/** Builds `entries` into `outdir`, the parts of each bundle renamed after their content, keeping `previous`; writes and returns the record. */
export function buildWithPartNames(options: {
  readonly outdir: string;
  readonly entries: readonly PartEntry[];
  readonly buildEntry: (entry: PartEntry, defines: LoaderDefines) => Promise<unknown>;
  readonly previous?: ReadonlyMap<string, Buffer>;
}): Promise<PartNames>;
