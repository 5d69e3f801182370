import { openDatabase, useDatabase } from "~/db/client.server";

// Runs the project's own code in the test process on a test server's PostgreSQL database (what a
// staff action would call there, e.g. the content store's schedule), installed as this process's
// database only while `work` runs.

export async function onServerDatabase<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl });
  useDatabase(database);
  try {
    return await work();
  } finally {
    useDatabase(undefined);
    await database.close();
  }
}
