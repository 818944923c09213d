// A copy of the working tree as a fresh clone has it (tracked and new files, node_modules linked as
// after `npm install`), for tests that build or start the shop without touching the shared dist/.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freshCopy(repo = process.cwd()): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'duuka-fresh-'));
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  });
  for (const file of files.split('\0').filter(Boolean)) {
    await cp(join(repo, file), join(dir, file)).catch(() => undefined); // deleted, not yet staged
  }
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules')); // as after `npm install`
  execFileSync('git', ['init', '-q'], { cwd: dir }); // Tailwind's scanner reads .gitignore in a repo
  return dir;
}
