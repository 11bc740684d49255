/** Types of page-probe.mjs for the tests that load the probe into a page. */
export declare const PROBE_FILE: string;
export declare function pageProbeSource(options: { promptSelector: string; visit: 'first' | 'return' }): string;
