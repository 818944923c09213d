// Errors as Postgres reports them, kept with every field so the endpoint can answer as Neon does.

/** The ErrorResponse fields Neon's proxy sends back, every one (the driver reads the same). */
export const ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'severity',
  'where',
  'table',
  'column',
  'schema',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;
export type ErrorFields = Partial<Record<(typeof ERROR_FIELDS)[number], string>>;

/** An ErrorResponse from Postgres (sent to the client as HTTP 400 with all its fields). */
export class PostgresError extends Error {
  fields: ErrorFields;
  constructor(message: string, fields: ErrorFields) {
    super(message);
    this.name = 'PostgresError';
    this.fields = fields;
  }
}

export function toPostgresError(error: unknown): PostgresError | undefined {
  if (error instanceof PostgresError) return error;
  const e = error as { message?: unknown; code?: unknown; severity?: unknown } | null;
  // pg's and PGlite's DatabaseError carry `severity` and a five-character SQLSTATE `code`.
  if (!e || typeof e.code !== 'string' || typeof e.severity !== 'string') return undefined;
  const fields: ErrorFields = {};
  const source = e as Record<string, unknown>;
  for (const key of ERROR_FIELDS) {
    if (typeof source[key] === 'string') fields[key] = source[key];
  }
  return new PostgresError(String(e.message), fields);
}

export function timeoutError(): PostgresError {
  return new PostgresError('canceling statement due to statement timeout', {
    code: '57014',
    severity: 'ERROR',
  });
}

export function cancelledError(): PostgresError {
  return new PostgresError('canceling statement due to user request', {
    code: '57014',
    severity: 'ERROR',
  });
}
