/** Types of native-build.mjs, for its unit test. */
/** Where the server and e2e steps load better-sqlite3's binding from. */
export const BINDING: string;
/** Starts the build ahead in `folder` and returns at once. */
export function startBuild(folder: string): void;
/** Waits for the build in `folder` and copies its binding to `target`; false when it failed or did not end in time. */
export function takeBuild(folder: string, options?: { limitMs?: number; target?: string }): Promise<boolean>;
