// Command line of `npm run bench -- [part...] [--runs N] [--quick] [--duration S]`.

export const PARTS = ['size', 'consent', 'auto-ads', 'server', 'hosted', 'test-page'];

const USAGE = `usage: npm run bench -- [${PARTS.join('|')}...] [--runs N] [--quick] [--duration SECONDS]
  --runs N        browser runs per variant (default 20; --quick: 3)
  --quick         smoke run: 3 runs, small auto-ads pages only up to 1,000 blocks, 2 s server loads
  --duration S    seconds of each server load (default 10; --quick: 2)`;

export function parseArgs(argv) {
  const options = { parts: [], runs: null, quick: false, duration: null };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--runs' || arg === '--duration') {
      const value = Number(argv[++index]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`${arg}: expected a positive integer\n${USAGE}`);
      options[arg.slice(2)] = value;
    } else if (PARTS.includes(arg)) options.parts.push(arg);
    else throw new Error(`unknown argument "${arg}"\n${USAGE}`);
  }
  return {
    parts: options.parts.length ? options.parts : PARTS,
    runs: options.runs ?? (options.quick ? 3 : 20),
    quick: options.quick,
    duration: options.duration ?? (options.quick ? 2 : 10),
  };
}
