// `npm run bench`: the benchmark suite is not written yet (it has its own issue). Until then this
// prints the production bundle sizes, the one figure already measured on every test run.
import { spawnSync } from 'node:child_process';

console.log('benchmarks: not yet (browser timings, placement scaling and server load come with the benchmark issue)');
spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
spawnSync('node', ['scripts/size.mjs'], { stdio: 'inherit' });
