// What a failed statement means, read from PostgreSQL's own error (its SQLSTATE), wherever the
// driver or drizzle-orm wrapped it (DrizzleQueryError keeps the driver's error as its `cause`).

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

interface PostgresError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/** The unique violation inside `error` (its constraint's name and message), or null when it is not one. */
export function uniqueViolationOf(error: unknown): { constraint: string; message: string } | null {
  for (let current: unknown = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const { code, constraint, message } = current as PostgresError;
    if (code === UNIQUE_VIOLATION) return { constraint: typeof constraint === "string" ? constraint : "", message: typeof message === "string" ? message : "" };
  }
  return null;
}

/** True for PostgreSQL's unique violation, wherever it was wrapped. */
export function isUniqueViolation(error: unknown): boolean {
  return uniqueViolationOf(error) !== null;
}
