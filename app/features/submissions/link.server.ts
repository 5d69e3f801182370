import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { submissions } from "~/db/schema/submissions";

/** An anonymous request joins the account that later confirms the same email. */
export async function linkSubmissionsToUser(userId: string, email: string): Promise<number> {
  const linked = await getDb()
    .update(submissions)
    .set({ userId })
    .where(and(isNull(submissions.userId), eq(sql`lower(${submissions.email})`, email.toLowerCase())))
    .returning({ id: submissions.id });
  return linked.length;
}
