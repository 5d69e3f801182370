import { getEnv } from "~/lib/env.server";

/** Settings the browser may know: the canonical origin for links and structured data. */
export function getPublicSettings() {
  return { publicUrl: getEnv().publicUrl };
}
