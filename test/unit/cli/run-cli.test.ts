import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArguments, runCli } from '../../../cli/run-cli.ts';
import { breakPage, VALID_PAGE } from './pages.ts';

const folder = mkdtempSync(join(tmpdir(), 'page-validate-'));
const write = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

async function run(args: string[]) {
  let output = '';
  let errors = '';
  const code = await runCli(args, {
    stdin: (async function* () {})(),
    write: (text) => (output += text),
    writeError: (text) => (errors += text),
  });
  return { code, output, errors };
}

describe('runCli', () => {
  it('reads a target, --format and --ads-config in any order', () => {
    expect(parseArguments(['page.html', '--format', 'json'])).toEqual({ target: 'page.html', format: 'json' });
    expect(parseArguments(['--format=text', '--ads-config', 'a.json', '-'])).toEqual({
      target: '-',
      adsConfig: 'a.json',
      format: 'text',
    });
    expect(parseArguments([])).toBeNull();
    expect(parseArguments(['a.html', '--format', 'xml'])).toBeNull();
    expect(parseArguments(['a.html', 'b.html'])).toBeNull();
  });

  it('prints the usage and exits 2 on bad arguments', async () => {
    expect(await run(['--verbose'])).toMatchObject({
      code: 2,
      output: '',
      errors: expect.stringContaining('usage: page-validate'),
    });
  });

  it('prints the usage to stdout and exits 0 with --help or -h, also with --audit', async () => {
    for (const args of [['--help'], ['-h'], ['--audit', '--help'], ['page.html', '--help']]) {
      expect(await run(args), args.join(' ')).toMatchObject({
        code: 0,
        output: expect.stringContaining('usage: page-validate'),
        errors: '',
      });
    }
  });

  it('exits 0 with a summary for a valid page', async () => {
    const path = write('valid.html', VALID_PAGE);
    expect(await run([path])).toEqual({ code: 0, output: `${path}: 0 errors, 0 warnings\n`, errors: '' });
  });

  it('exits 0 when there are only warnings', async () => {
    const path = write('warned.html', breakPage('<div id="prompt" hidden>', '<div id="prompt">'));
    const { code, output } = await run([path]);
    expect(code).toBe(0);
    expect(output).toMatch(
      /warning validate-ui-not-hidden: expected the promptUI written with the hidden attribute, got "prompt"\n {2}hint: Write the UI with `hidden`; the component shows it\.\n.*0 errors, 1 warning\n$/,
    );
  });

  it('reports an input it cannot read as an error', async () => {
    const { code, output } = await run(['--format', 'json', join(folder, 'missing.html')]);
    expect(code).toBe(1);
    expect(JSON.parse(output)).toEqual([
      {
        severity: 'error',
        code: 'validate-input-unreadable',
        message: 'expected a readable page or config, got "ENOENT"',
        line: 1,
        column: 1,
        hint: expect.any(String),
      },
    ]);
  });

  it('checks an auto-ads config file with --ads-config', async () => {
    const path = write('ads.json', '{"placements": [{"anchor": {"selector": "p"}, "pos": 9, "type": 1}]}');
    const { code, output } = await run(['--ads-config', path]);
    expect(code).toBe(1);
    expect(output).toContain(`${path}:1:1 error auto-ads-placement-invalid: expected placements[0].pos:`);
  });
});
