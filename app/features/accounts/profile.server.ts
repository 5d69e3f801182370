import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { user } from "~/db/schema/auth";
import { ok, type Result } from "~/lib/result";

// A signed-in person edits their own name, company and phone (the route passes its own user id).

export async function updateProfile(input: { userId: string; name: string; company?: string; phone?: string }): Promise<Result> {
  await getDb()
    .update(user)
    .set({ name: input.name, company: input.company ?? null, phone: input.phone ?? null, updatedAt: new Date() })
    .where(eq(user.id, input.userId));
  return ok();
}
