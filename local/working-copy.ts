// A copy of the working tree to build and serve from (the bench and the soak). Other builds in
// this checkout rewrite dist/ and .wrangler/deploy (which `vite preview` reads) at any time, and
// ours would clobber theirs: copy the tracked and untracked, non-ignored files (uncommitted
// changes included), link node_modules, and work in there.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type WorkingCopy = { dir: string; repo: string; leave(): Promise<void> };

/** Copies the working tree into a temporary folder and makes it the current directory. */
export async function enterWorkingCopy(prefix: string): Promise<WorkingCopy> {
  const repo = process.cwd();
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    encoding: 'utf8',
  });
  for (const file of files.split('\0').filter(Boolean)) {
    await cp(file, join(dir, file)).catch(() => undefined); // deleted but not yet staged
  }
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('git', ['init', '-q'], { cwd: dir }); // Tailwind's scanner honours .gitignore in a repo
  process.chdir(dir);
  return {
    dir,
    repo,
    async leave() {
      process.chdir(repo);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
