// What every command entry point (scripts/*.ts) does with a problem of the local set-up.
import { LocalSetupError } from './setup-error.ts';

/**
 * Runs a command; a LocalSetupError (a locked or damaged data directory, a busy port, ...) ends
 * it with its message as one line and exit code 1, no stack. Anything else is a bug and keeps
 * its stack.
 */
export async function runCommand(command: () => Promise<void>): Promise<void> {
  try {
    await command();
  } catch (error) {
    if (!(error instanceof LocalSetupError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
