/** true in the development build and in tests; false in the production CDN build (esbuild define). */
declare const DEV: boolean;
/** The release: a hash of the source tree in the CDN builds, `dev` in tests (esbuild define). */
declare const RELEASE: string;
/**
 * The parts this bundle loads (esbuild define per bundle, scripts/part-names.mjs): the prefix of
 * their file names (`page-runtime-`), the content hash their file names share (`k3x9a`), and
 * their names (`actions,macros`; read in development only).
 */
declare const PART_PREFIX: string;
declare const PART_HASH: string;
declare const PART_NAMES: string;
