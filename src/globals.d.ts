/** true in the development build and in tests; false in the production CDN build (esbuild define). */
declare const DEV: boolean;
/** The release: a hash of the source tree in the CDN builds, `dev` in tests (esbuild define). */
declare const RELEASE: string;
