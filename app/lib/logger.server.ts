import pino from "pino";
import { getEnv } from "./env.server";

/** The one logger: JSON lines on stdout, request id added by the server's access log. */
export const logger = pino({
  level: getEnv().logLevel,
  base: { app: "forja" },
  timestamp: pino.stdTimeFunctions.isoTime,
});
