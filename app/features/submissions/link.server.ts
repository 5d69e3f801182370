import { linkRowsByEmail } from "~/db/link-by-email.server";
import { submissions } from "~/db/schema/submissions";

/** An anonymous request joins the account that later confirms the same email. */
export function linkSubmissionsToUser(userId: string, email: string): Promise<number> {
  return linkRowsByEmail(submissions, { owner: submissions.userId, email: submissions.email }, userId, email);
}
