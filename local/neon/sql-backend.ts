// What a database behind the local Neon endpoint does (local/neon/endpoint.ts), and the session
// hygiene both backends share (PGlite, local/neon/pglite-backend.ts; PostgreSQL,
// local/neon/postgres-backend.ts).

import { PostgresError } from './sql-errors.ts';

export type BatchOptions = {
  isolationLevel?: 'ReadUncommitted' | 'ReadCommitted' | 'RepeatableRead' | 'Serializable';
  readOnly?: boolean;
  deferrable?: boolean;
};

/** A result column, as in the wire protocol's RowDescription. */
export type Field = {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
};

/** One statement's result: every non-null value is Postgres' exact text output. */
export type QueryResult = {
  fields: Field[];
  rows: (string | null)[][];
  /** First word of the command tag ("SELECT", "INSERT", "CREATE"...); "" for an empty query. */
  command: string;
  /** Row count from the command tag; null when the tag has none (CREATE, BEGIN...). */
  rowCount: number | null;
};

/**
 * A database behind the endpoint. Every request runs on a connection of its own session state
 * (reset after it, as Neon's pool does), bounded by a statement timeout; `signal` aborts when the
 * HTTP client goes away, which cancels the statement.
 */
export interface SqlBackend {
  /** Runs one statement (autocommit). Throws PostgresError for errors reported by Postgres. */
  query(sql: string, params: unknown[], signal?: AbortSignal): Promise<QueryResult>;
  /** Runs the statements in one transaction, all or nothing; throws the first error. */
  batch(
    queries: { query: string; params: unknown[] }[],
    options: BatchOptions,
    signal?: AbortSignal,
  ): Promise<QueryResult[]>;
  /** Told the endpoint's connection string once it listens (PGlite records it in its lock). */
  noteEndpoint?(databaseUrl: string): Promise<void>;
  close(): Promise<void>;
}

/** Only the RowDescription fields Neon sends (PGlite's and pg's objects carry more). */
export function toField(f: Field): Field {
  return {
    name: f.name,
    dataTypeID: f.dataTypeID,
    tableID: f.tableID,
    columnID: f.columnID,
    dataTypeSize: f.dataTypeSize,
    dataTypeModifier: f.dataTypeModifier,
  };
}

/** Default statement_timeout: one slow statement must not hold every request behind it. */
export const STATEMENT_TIMEOUT_MS = 15_000;

/** The first keyword of a statement, after leading blanks and comments ("" when none). */
function firstKeyword(sql: string): string {
  let i = 0;
  for (;;) {
    while (i < sql.length && /\s/.test(sql.charAt(i))) i++;
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      let depth = 0; // Postgres' block comments nest
      do {
        if (sql.startsWith('/*', i)) depth++;
        else if (sql.startsWith('*/', i)) depth--;
        else {
          i++;
          continue;
        }
        i += 2;
      } while (depth > 0 && i < sql.length);
    } else break;
  }
  return (/^[a-z]+(\s+transaction\b)?/i.exec(sql.slice(i))?.[0] ?? '').toUpperCase();
}

const TRANSACTION_CONTROL = new Set([
  'BEGIN',
  'START',
  'COMMIT',
  'END',
  'ROLLBACK',
  'ABORT',
  'SAVEPOINT',
  'RELEASE',
  'PREPARE TRANSACTION',
]);

/**
 * A batch is one transaction, all or nothing: a COMMIT (or ROLLBACK, SAVEPOINT...) inside it
 * would commit or undo part of it. Neon's proxy runs such a statement; refusing it here, before
 * anything runs, shows the mistake locally instead of half a batch written in production.
 */
export function refuseTransactionControl(queries: { query: string }[]): void {
  queries.forEach((q, i) => {
    const keyword = firstKeyword(q.query).replace(/\s+/g, ' ');
    const word = TRANSACTION_CONTROL.has(keyword) ? keyword : keyword.split(' ')[0];
    if (!word || !TRANSACTION_CONTROL.has(word)) return;
    throw new PostgresError(
      `${word} is not allowed inside a batch (statement ${i + 1} of ${queries.length}): ` +
        'a batch runs as one transaction, all or nothing',
      { code: '2D000', severity: 'ERROR' },
    );
  });
}

export function startTransactionSql(options: BatchOptions): string {
  const modes: string[] = [];
  const levels = {
    ReadUncommitted: 'READ UNCOMMITTED',
    ReadCommitted: 'READ COMMITTED',
    RepeatableRead: 'REPEATABLE READ',
    Serializable: 'SERIALIZABLE',
  } as const;
  if (options.isolationLevel) modes.push(`ISOLATION LEVEL ${levels[options.isolationLevel]}`);
  if (options.readOnly) modes.push('READ ONLY');
  if (options.deferrable) modes.push('DEFERRABLE');
  return modes.length ? `START TRANSACTION ${modes.join(', ')}` : 'START TRANSACTION';
}
