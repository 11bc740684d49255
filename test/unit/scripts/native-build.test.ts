import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BINDING, takeBuild } from '../../../scripts/native-build.mjs';

let folder: string;
let target: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'native-build-'));
  target = join(folder, 'target', 'better_sqlite3.node');
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** What the build ahead leaves: its exit status and, when it built, the binding. */
function finish(status: string, binding = 'binary') {
  if (binding) {
    mkdirSync(dirname(join(folder, BINDING)), { recursive: true });
    writeFileSync(join(folder, BINDING), binding);
  }
  writeFileSync(join(folder, 'log'), 'the build log');
  writeFileSync(join(folder, 'status'), status);
}

describe('the native build ahead (scripts/native-build.mjs)', () => {
  it('copies the binding into place once the build ends with status 0', async () => {
    const taken = takeBuild(folder, { limitMs: 5_000, target });
    setTimeout(() => finish('0\n'), 300);
    expect(await taken).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('binary');
  });

  it('leaves the build to the caller, printing the log, when the build failed', async () => {
    finish('1\n', '');
    expect(await takeBuild(folder, { limitMs: 1_000, target })).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(vi.mocked(console.log).mock.calls.flat().join('\n')).toContain('the build log');
  });

  it('does not take a binding that a failed build left behind', async () => {
    finish('2\n');
    expect(await takeBuild(folder, { limitMs: 1_000, target })).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it('stops waiting after the limit when the build never ends', async () => {
    expect(await takeBuild(folder, { limitMs: 600, target })).toBe(false);
    expect(vi.mocked(console.log).mock.calls.flat().join('\n')).toContain('did not end in time');
  });
});
