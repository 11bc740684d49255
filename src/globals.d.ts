/** true in the development build and in tests; false in the production CDN build (esbuild define). */
declare const DEV: boolean;
/** The release: a hash of the source tree in the CDN builds, `dev` in tests (esbuild define). */
declare const RELEASE: string;
/**
 * The parts this bundle loads (esbuild define per bundle, scripts/part-names.mjs): the prefix of
 * their file names (`page-runtime-`), and each one's name followed by the content hash in its
 * file name (`actionsk3x9amacros0b2c4`), for those parts and no others.
 */
declare const PART_PREFIX: string;
declare const PART_FILES: string;
