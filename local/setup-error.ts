/**
 * A problem with the local set-up that a developer can fix (a locked or damaged data directory,
 * a busy port, an old Node): command entry points print its message as one line, no stack.
 */
export class LocalSetupError extends Error {
  override name = 'LocalSetupError';
}
