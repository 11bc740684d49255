/** true in the development build and in tests; false in the production CDN build (esbuild define). */
declare const DEV: boolean;
