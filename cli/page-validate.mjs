#!/usr/bin/env node
// Launcher for `npx page-validate`: runs the TypeScript sources through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./run-cli.ts');
process.exitCode = await runCli(process.argv.slice(2), {
  stdin: process.stdin,
  write: (text) => process.stdout.write(text),
  writeError: (text) => process.stderr.write(text),
  isColour: process.stdout.isTTY === true && !process.env.NO_COLOR,
  isTerminal: process.stderr.isTTY === true,
  ...(process.stderr.columns ? { terminalColumns: process.stderr.columns } : {}),
});
