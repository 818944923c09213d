// What PostgreSQL said when it refused a statement, read one way. The Neon driver's error (a
// NeonDbError, with PostgreSQL's fields) comes as it is from a batch, and as the `cause` of
// drizzle's error from a single query.

/** PostgreSQL's error codes the shop acts on (the others are unexpected: let them through). */
export const PG = {
  notNull: '23502',
  foreignKey: '23503',
  unique: '23505',
  check: '23514',
} as const;

export type PostgresRefusal = { code?: string; constraint?: string };

/** The refusal's code and constraint, wherever the driver put them; empty for any other error. */
export function postgresError(error: unknown): PostgresRefusal {
  type Found = { code?: unknown; constraint?: unknown; cause?: Found };
  const found = error as Found | undefined;
  const source = typeof found?.cause?.code === 'string' ? found.cause : found;
  return {
    code: typeof source?.code === 'string' ? source.code : undefined,
    constraint: typeof source?.constraint === 'string' ? source.constraint : undefined,
  };
}

/** The refusal's code (`PG.unique`, …), or undefined for any other error. */
export const postgresCode = (error: unknown): string | undefined => postgresError(error).code;
