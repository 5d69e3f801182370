import { useEffect } from "react";
import { syncSession, useServerSignedIn, useSessionSnapshot, type OwnDetails } from "./session-store";

// The forms on cached pages (/cotiza, /contact) are the same HTML for everyone, so a signed-in
// customer's name and email cannot be in them; the browser fills them in after hydration from the
// same answer the header already asks for (docs/decisions/0031). Only those two routes import this.

export type { OwnDetails };

/** The signed-in customer's details once the browser knows them, else null (also while asking). */
export function useOwnDetails(): OwnDetails | null {
  const serverSignedIn = useServerSignedIn();
  useEffect(() => {
    void syncSession(serverSignedIn);
  }, [serverSignedIn]);
  const session = useSessionSnapshot();
  return session.status === "signed-in" ? (session.details ?? null) : null;
}
