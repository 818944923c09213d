// `node scripts/run.mjs <file.ts | command> [args...]`: how every npm script starts. The project
// needs Node 22.18 or newer (it runs its TypeScript files with plain `node`). On an older Node this
// installs Node 24 from the npm registry's `node` package into .tools/node (once), says so in one
// line and runs the command under it; stdio, signals and the exit code pass through. Plain
// JavaScript, so that Node 18 and 20 can run it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = 'Node 22.18 or newer';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools', 'node');
const toolsLabel = '.tools/node';

/** The launcher's own problems: one line, exit code 1. */
function fail(message) {
  console.error(`duuka: ${message}`);
  process.exit(1);
}

function newEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}

/** The binary that the `node` package installed for this machine (node-<platform>-<arch>). */
function installedNode() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const arch = platform === 'win' && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  const dir = join(
    toolsDir,
    'node_modules',
    'node',
    'node_modules',
    `${prefix}-${platform}-${arch}`,
  );
  try {
    const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const path = join(dir, typeof bin === 'string' ? bin : bin.node);
    const version = spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    return version && newEnough(version) ? { path, version: version.replace(/^v/, '') } : null;
  } catch {
    return null;
  }
}

function installNode() {
  console.error(
    `duuka: Node ${process.versions.node} is too old (needs ${NEEDED}); installing Node 24 from the npm registry into ${toolsLabel} (once)...`,
  );
  const args = ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund'];
  args.push('--ignore-scripts=false', '--prefix', toolsDir, 'node@24');
  // The npm that runs this script when there is one, else npm from PATH.
  const npmCli = process.env.npm_execpath;
  const install = npmCli?.endsWith('.js')
    ? spawnSync(process.execPath, [npmCli, ...args], { encoding: 'utf8' })
    : spawnSync('npm', args, { encoding: 'utf8', shell: process.platform === 'win32' });
  const node = installedNode();
  if (node) return node;
  // npm's first telling line, e.g. "FetchError: request to https://registry... failed".
  const why =
    install.error?.message ??
    (install.stderr ?? '')
      .split('\n')
      .filter((line) => /^npm (error|ERR!)/.test(line))
      .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
      .find((line) => line && !/^(code|syscall|errno|at|A complete log)\b/.test(line));
  return fail(
    `this project needs ${NEEDED} (this is Node ${process.versions.node}), and installing Node 24 into ${toolsLabel} failed${why ? ` (${why})` : ''}. Install Node 24 (https://nodejs.org, or \`nvm install 24\`) and run the command again.`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (!command) fail('usage: node scripts/run.mjs <file.ts | command> [args...]');

let node = process.execPath;
const path = [join(root, 'node_modules', '.bin'), process.env.PATH ?? ''];
const env = { ...process.env };
if (!newEnough(process.versions.node)) {
  const installed = installedNode() ?? installNode();
  console.error(
    `duuka: Node ${process.versions.node} is too old; running under Node ${installed.version} from ${toolsLabel}`,
  );
  node = installed.path;
  path.unshift(dirname(node)); // so that tools which start `node` themselves get this one too
  Object.assign(env, { npm_node_execpath: node, NODE: node });
}
env.PATH = path.join(delimiter);

/** A command's file on PATH (Windows' shell finds its own). */
function onPath(name) {
  if (process.platform === 'win32') return name;
  const dir = path.find((entry) => entry && existsSync(join(entry, name)));
  return dir ? join(dir, name) : name;
}

// A file runs with node; anything else is a command (a package's bin such as vitest).
const isFile = /\.[cm]?[jt]s$/.test(command) && existsSync(resolve(command));
const child = isFile
  ? spawn(node, [command, ...args], { stdio: 'inherit', env })
  : spawn(onPath(command), args, { stdio: 'inherit', env, shell: process.platform === 'win32' });

child.on('error', (error) => fail(`could not run ${command}: ${error.message}`));
// Ctrl-C reaches the child from the terminal itself; other stops are passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
