import { randomUUID } from "node:crypto";
import path from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { startChangeFeed } from "~/db/change-feed.server";
import { maintenanceGate, startMaintenanceFeed } from "~/services/backups/maintenance.server";
import { getDatabase, openDatabase, useDatabase } from "~/db/client.server";
import { registerFeatureHooks } from "~/hooks.server";
import { seedCatalogue, seedDemoModels, startModelJob } from "~/features/catalogue/index.server";
import { MEDIA_SEED_FAILED, seedSiteImagery } from "~/features/site/index.server";
import { startGeometryJob } from "~/features/solicitudes/index.server";
import { removeOrphanUploads } from "~/services/files/orphans.server";
import { seedContent } from "~/services/content/seed.server";
import { startScheduledPublications } from "~/services/content/schedule.server";
import { cleanTmpUploads } from "~/services/files/storage.server";
import { closeMailTransport } from "~/services/mail/transport.server";
import { removeAbandonedGuestCarts } from "~/features/orders/index.server";
import { getPaymentConfig } from "~/services/site-config/payment-account";
import { startMailWorker } from "~/services/mail/outbox.server";
import { closeRealtimeStreams, startRealtime } from "~/services/realtime/index.server";
import { isStaffRole } from "~/features/accounts/index.server";
import { startCronJobs } from "~/services/jobs/registry.server";
import { countIfWrite } from "~/services/jobs/foreground.server";
import { recordRequest, runInRequestScope, startLogWriter } from "~/services/logs/log-writer.server";
import { getEnv, type Env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { clientIpContext, cspNonceContext, requestIdContext } from "~/lib/request-context";
import { canonicalPath, canonicalRoutes, isExemptFromCanonical, type CanonicalRoutes } from "./canonical";
import { bodyLimits, hasBody } from "./body-limit";
import { closeAfterAnswer, isClosing } from "./refusal";
import { apiCors } from "./cors";
import { inputGuard } from "./input-guard";
import { crossSiteChecks } from "./cross-site";
import { createPageCache } from "./page-cache";
import { hashedAssets } from "./static-assets";
import { scheduledJobs } from "./scheduled-jobs";
import { reactRouterHandler } from "./router-handler";
import { securityHeaders } from "./security";

// The Express application: everything between the socket (server/index.ts) and React Router.
// Bundled by Vite as the server build's entry, so it shares modules with the routes.

const getBuild = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

/** Validated configuration; throws an error that names every bad variable. */
export function loadEnv(): Env {
  return getEnv();
}

/** Opens the database, applies migrations and seeds demo content; returns how to stop it all. */
export async function startServices(): Promise<{ stop: () => Promise<void> }> {
  const env = getEnv();
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : path.join(env.dataDir, "db"),
  });
  useDatabase(database);
  registerFeatureHooks();
  await database.migrate();
  // Requests and the logger's warnings and errors into the logs table (docs/decisions/0051).
  const logWriter = env.LOGS_MAX_DAYS > 0 ? startLogWriter({ isStaffRole }) : undefined;
  // Before anything is cached: caches of the catalogue and the staff lists follow its versions.
  const changeFeed = await startChangeFeed(database);
  const realtime = await startRealtime(database);
  // Another process restoring a backup puts this one in maintenance too (docs/decisions/0055).
  const maintenanceFeed = await startMaintenanceFeed(database);
  // The site's content collections, once on an empty database (issue 16, docs/decisions/0037).
  const seededContent = await seedContent();
  await seedCatalogue();
  await seedDemoModels();
  logger.info({ database: database.kind, seededContent }, "database ready");
  getPaymentConfig(); // a bad SPEI_CLABE stops the start, not the first order
  await cleanTmpUploads();
  const scheduledPublications = startScheduledPublications();
  // It walks every stored file: in the background, so a large store does not delay the start.
  const orphanSweep = removeOrphanUploads().catch((error) => logger.warn({ err: error }, "could not sweep stored files without a row"));
  // The site's pictures into an empty media library (docs/decisions/0046): once, in the background (encoding takes seconds).
  const stopMediaSeed = new AbortController();
  const mediaSeed = seedSiteImagery(stopMediaSeed.signal).catch((error) => logger.warn({ err: error }, MEDIA_SEED_FAILED));
  await removeAbandonedGuestCarts();
  const mailWorker = startMailWorker();
  const cronJobs = startCronJobs(scheduledJobs());
  const geometryJob = startGeometryJob();
  const modelJob = startModelJob();
  return {
    stop: async () => {
      await cronJobs.stop();
      await scheduledPublications.stop();
      await geometryJob.stop();
      await modelJob.stop();
      await mailWorker.stop();
      closeMailTransport();
      await orphanSweep;
      stopMediaSeed.abort();
      await mediaSeed;
      await realtime.stop();
      await maintenanceFeed.stop();
      await changeFeed.stop();
      await logWriter?.stop();
      await getDatabase().close();
      useDatabase(undefined);
      logger.info("database closed");
    },
  };
}

/** Ends the long-lived responses (realtime streams) so closing the HTTP server does not wait for them. */
export function endLongResponses(): void {
  closeRealtimeStreams();
}

function createLoadContext(req: Request, res: Response, nonce = String(res.locals.cspNonce ?? "")) {
  const context = new RouterContextProvider();
  context.set(cspNonceContext, nonce);
  context.set(clientIpContext, req.ip ?? "");
  context.set(requestIdContext, String(res.locals.requestId ?? ""));
  return context;
}

/**
 * A request answered before its body was read to the end (a body past a size limit, an upload
 * refused before it is read) must not leave the rest of that body on a kept-alive connection, where
 * it would be read as the next request: such an answer closes the connection. Not at once: closing
 * with the client's bytes still arriving answers them with a reset, which can reach the client
 * before it has read the answer (it then sees no answer at all), so the rest is read and dropped
 * first (closeAfterAnswer).
 */
function closeAfterUnreadBody(req: Request, res: Response, next: NextFunction) {
  // A request without a body (a GET, a preflight) may be answered before Node marks it complete.
  const withBody = hasBody(req);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    // Its Connection: close makes Node end the connection after this answer.
    if (withBody && !req.complete) closeAfterAnswer(req, res);
    return (writeHead as (...rest: unknown[]) => Response).apply(this, args);
  } as Response["writeHead"];
  next();
}

/**
 * A request pipelined behind an answer that closes its connection (closeAfterAnswer): its answer
 * could never be sent, so it is not run; its body is dropped while the connection closes.
 */
function skipBehindClosingAnswer(req: Request, _res: Response, next: NextFunction) {
  if (!isClosing(req.socket)) return next();
  req.resume();
}

function requestLog(req: Request, res: Response, next: NextFunction) {
  const incoming = req.get("x-request-id");
  const requestId = incoming && /^[\w.-]{8,128}$/.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  res.setHeader("X-Request-Id", requestId);
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number((process.hrtime.bigint() - started) / 100_000n) / 10;
    const ip = req.ip;
    // One array push; the rest is done in batches (app/services/logs/log-writer.server.ts).
    recordRequest({
      at: Date.now(),
      requestId,
      method: req.method,
      url: req.originalUrl,
      status: res.statusCode,
      ms,
      ip,
      remoteIp: req.socket.remoteAddress,
      referer: req.headers.referer,
      userAgent: req.headers["user-agent"],
      authorization: req.headers.authorization,
      cookie: req.headers.cookie,
    });
    logger.info(
      {
        reqId: requestId,
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        ms,
        ip,
        // Answered from the page cache before the middleware chain (server/page-cache.ts).
        ...(res.locals.earlyPage ? { earlyPage: true } : {}),
      },
      "request",
    );
  });
  next();
}

function canonicalRedirect() {
  let routes: CanonicalRoutes | undefined;
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || isExemptFromCanonical(req.path)) return next();
    try {
      routes ??= canonicalRoutes((await getBuild()).routes);
      const target = canonicalPath(req.path, routes);
      if (!target) return next();
      const query = req.originalUrl.indexOf("?");
      res.redirect(301, target + (query >= 0 ? req.originalUrl.slice(query) : ""));
    } catch (error) {
      next(error);
    }
  };
}

export function createApp({ mode }: { mode: "production" | "development" }): express.Express {
  const env = getEnv();
  const development = mode === "development";
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(skipBehindClosingAnswer);
  app.use(requestLog);
  // Background jobs wait while a write is in flight (docs/decisions/0073).
  app.use((req, res, next) => {
    countIfWrite(req.method, res);
    next();
  });
  // While a backup is restored every request is answered 503 here, before the page cache (docs/decisions/0055).
  app.use(maintenanceGate);
  // A kept public page is answered here, before the chain below (docs/decisions/0042).
  const pageCache = development ? undefined : createPageCache({ getBuild, createContext: createLoadContext, publicUrl: env.publicUrl });
  if (pageCache) app.use(pageCache.early);
  // The error lines logged while a request is handled carry its id into the logs table.
  app.use((_req, res, next) => runInRequestScope(String(res.locals.requestId), next));
  app.use(closeAfterUnreadBody);
  app.use(compression());
  app.use(securityHeaders(development));
  app.use(apiCors());
  app.use(inputGuard());
  app.use(crossSiteChecks({ publicUrl: env.publicUrl }));
  app.use(bodyLimits());

  if (!development) {
    const client = path.resolve("build/client");
    // Hashed file names never change content: cache them for a year.
    app.use("/assets", hashedAssets(path.join(client, "assets")));
    app.use("/assets", express.static(path.join(client, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.get("/version.json", (_req, res) => {
      res.setHeader("Cache-Control", "no-cache");
      res.sendFile(path.join(client, "version.json"));
    });
    app.use(express.static(client, { maxAge: "1h", index: false }));
  }

  app.use(canonicalRedirect());
  if (pageCache) app.use(pageCache.serve);
  app.all("/{*splat}", routerHandler(mode));
  return app;
}

/**
 * React Router's handler. Given a function for the build, React Router derives its route matcher
 * again on every request (every route's pattern compiled and ranked: about 2 ms of this thread per
 * request), which development needs for its reloads. In production the build never changes: the
 * handler gets the build itself, once.
 */
function routerHandler(mode: "production" | "development"): express.RequestHandler {
  const getLoadContext = (req: Request, res: Response) => createLoadContext(req, res);
  if (mode === "development") return reactRouterHandler({ build: getBuild, mode, getLoadContext });
  let handler: express.RequestHandler | undefined;
  const ready = getBuild().then((build) => (handler = reactRouterHandler({ build, mode, getLoadContext })));
  // A build that cannot be loaded is logged once here and answered by each request's error handler.
  ready.catch((error: unknown) => logger.error({ err: error }, "could not load the server build"));
  return (req, res, next) => {
    if (handler) return handler(req, res, next);
    ready.then((loaded) => loaded(req, res, next), next);
  };
}

let devApp: express.Express | undefined;

/** The development app is created once per module instance (Vite reloads this module on change). */
export function getDevApp(): express.Express {
  devApp ??= createApp({ mode: "development" });
  return devApp;
}

export { runAdminCreate } from "~/features/accounts/index.server";
export { runBackupCommand, runRestoreCommand } from "~/services/backups/commands.server";
export { runFilesToS3Command } from "~/services/files/to-s3.server";
