// Runs `npm run build` when dist/cdn/v0.js is missing or older than any source file of src/.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { CDN_ROOT, listFiles } from '../../scripts/cdn-sizes.mjs';

export function isBuildStale() {
  const built = `${CDN_ROOT}/v0.js`;
  if (!existsSync(built)) return true;
  const builtAt = Math.min(...listFiles(CDN_ROOT).map((path) => statSync(path).mtimeMs));
  return listFiles('src', '.ts').some((path) => statSync(path).mtimeMs > builtAt);
}

export function ensureBuild() {
  if (!isBuildStale()) return false;
  console.log('dist/cdn is missing or older than src/: building');
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
  return true;
}
