import pino from "pino";
import { getEnv } from "./env.server";

/** Receives each warning and error line as it is logged (pino's arguments and level). */
export type LogTap = (level: number, args: readonly unknown[]) => void;

let tap: LogTap | undefined;

/** Also hands warnings and errors to `next` (the logs table, app/services/logs); undefined stops it. */
export function tapLogWarnings(next: LogTap | undefined): void {
  tap = next;
}

/** The one logger: JSON lines on stdout, request id added by the server's access log. */
export const logger = pino({
  level: getEnv().logLevel,
  base: { app: "forja" },
  timestamp: pino.stdTimeFunctions.isoTime,
  hooks: {
    logMethod(args, method, level) {
      if (tap && level >= 40) tap(level, args);
      return method.apply(this, args);
    },
  },
});
