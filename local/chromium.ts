// The Chromium the browser tests, the audit and the bench start, and the flags this machine needs
// (no sandbox as root; no background networking, which the closed network refuses).
//
// Which one (issue 32: `npm install && npm test` on a machine with only Node):
// - CHROMIUM_PATH=/some/chromium: that one;
// - else Debian's /usr/bin/chromium when it is installed;
// - else (or with CHROMIUM_PATH=npm) the Chromium inside the npm package @sparticuz/chromium (a
//   devDependency): its headless shell, brotli-packed in the package itself, unpacked once into
//   the system's temporary folder with the libraries it needs beyond glibc (NSS, NSPR, expat) and
//   one font family (Open Sans). It sees only those fonts, never the machine's, so it draws the
//   same on every machine: the screens' own type comes from the shop's webfonts (@fontsource);
//   Open Sans stands in for `system-ui`, `sans-serif` and `serif` fallbacks. It has no emoji or CJK
//   fonts: no screen under test shows either.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Debian's Chromium (`apt-get install chromium`). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** @deprecated The path only: start browsers from chromiumLaunch(), which also finds the npm one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM;

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ChromiumLaunch = {
  /** Where it comes from, for a log line: 'debian', 'npm' or the CHROMIUM_PATH given. */
  source: string;
  executablePath: string;
  args: string[];
  /** The browser process's whole environment when it needs more than ours (the npm one's
   * libraries and fonts); undefined: it inherits this process's. */
  env?: Record<string, string>;
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The browser to start, per the rules above; the npm one is unpacked on first use (a few s). */
export async function chromiumLaunch(): Promise<ChromiumLaunch> {
  const given = process.env.CHROMIUM_PATH;
  if (given && given !== 'npm') {
    return { source: given, executablePath: given, args: CHROMIUM_FLAGS };
  }
  if (!given && executable(DEBIAN_CHROMIUM)) {
    return { source: 'debian', executablePath: DEBIAN_CHROMIUM, args: CHROMIUM_FLAGS };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      'No Chromium: install one and set CHROMIUM_PATH to it (the npm package carries one for Linux on x64 only)',
    );
  }
  const dir = await npmChromium();
  return {
    source: 'npm',
    executablePath: join(dir, 'chromium'),
    // Only our own flags: the package's suggested ones (--single-process, --disable-web-security…)
    // are for AWS Lambda and would switch off what the tests check (origins, CSP).
    args: CHROMIUM_FLAGS,
    env: {
      ...(process.env as Record<string, string>),
      LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH]
        .filter(Boolean)
        .join(':'),
      FONTCONFIG_FILE: join(dir, 'fonts.conf'),
    },
  };
}

/** The package's Chromium unpacked into <tmp>/duuka-chromium-<version>: once per version. */
async function npmChromium(): Promise<string> {
  // Its entry is build/index.js (only that is exported): the package's folder is two up. (Node's
  // resolver, not import.meta.resolve, which vitest's module runner lacks.)
  const root = dirname(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')));
  const manifest = join(root, 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const bin = join(root, 'bin');
  const dir = join(tmpdir(), `duuka-chromium-${version}`);
  if (existsSync(join(dir, 'chromium'))) return dir;
  // Unpacked beside it, then renamed into place in one step: two test workers starting at once,
  // or a run stopped mid-way, never leave a half-written browser behind.
  const staging = `${dir}.${randomBytes(4).toString('hex')}`;
  await mkdir(staging, { recursive: true });
  try {
    // The package's own unpacker writes into os.tmpdir(), read from TMPDIR as each call starts:
    // pointed at the staging folder for the three synchronous starts, and put back at once.
    const { inflate } = (await import('@sparticuz/chromium')) as {
      inflate: (file: string) => Promise<string>;
    };
    const before = process.env.TMPDIR;
    process.env.TMPDIR = staging;
    const unpacking = ['chromium.br', 'al2023.tar.br', 'fonts.tar.br'].map((file) =>
      inflate(join(bin, file)),
    );
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await Promise.all(unpacking);
    await writeFile(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${join(dir, 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n` +
        `</fontconfig>\n`,
    );
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (existsSync(join(dir, 'chromium'))) return dir; // another process unpacked it first
    throw error;
  }
  return dir;
}

/** What Playwright's launch() takes of it. */
export const launchOptions = ({ executablePath, args, env }: ChromiumLaunch) => ({
  executablePath,
  args,
  env,
});
