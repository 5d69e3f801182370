// Entry point: `npm start` (production build) and `npm run dev` (Vite middleware with hot reload).
// Runs directly on Node 24 (type stripping), so only erasable TypeScript syntax is used here.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import type { Express } from "express";
import type { ViteDevServer } from "vite";
import { tuneHeap } from "./heap.ts";

interface ServerAppModule {
  loadEnv(): { PORT: number; HOST: string; publicUrl: string };
  startServices(): Promise<{ stop: () => Promise<void> }>;
  endLongResponses(): void;
  createApp(options: { mode: "production" | "development" }): Express;
  getDevApp(): Express;
}

const development = process.env.NODE_ENV === "development";

tuneHeap();

// PORT=0 asks for any free port. Pick it now, so PUBLIC_URL (links, emails, OAuth callbacks) can
// name the real port; the tiny window before we listen on it again is fine for tests and tools.
if (process.env.PORT === "0") {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, process.env.HOST || "127.0.0.1", resolve));
  const address = probe.address();
  process.env.PORT = String(typeof address === "object" && address ? address.port : 0);
  await new Promise((resolve) => probe.close(resolve));
  process.env.PUBLIC_URL ??= `http://${process.env.HOST || "127.0.0.1"}:${process.env.PORT}`;
}
const SHUTDOWN_TIMEOUT_MS = 10_000;

let vite: ViteDevServer | undefined;
let serverApp: ServerAppModule;

if (development) {
  const { createServer } = await import("vite");
  vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  serverApp = (await vite.ssrLoadModule("./server/app.ts")) as unknown as ServerAppModule;
} else {
  const buildPath = path.resolve("build/server/index.js");
  if (!fs.existsSync(buildPath)) {
    console.error("No existe la compilación de producción (build/server/index.js). Ejecute: npm run build");
    process.exit(1);
  }
  serverApp = (await import(pathToFileURL(buildPath).href)) as ServerAppModule;
}

let env: ReturnType<ServerAppModule["loadEnv"]>;
try {
  env = serverApp.loadEnv();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const services = await serverApp.startServices();
const app = express();
app.disable("x-powered-by");

if (vite) {
  const devServer = vite;
  app.use(devServer.middlewares);
  app.use(async (req, res, next) => {
    try {
      const module = (await devServer.ssrLoadModule("./server/app.ts")) as unknown as ServerAppModule;
      module.getDevApp()(req, res, next);
    } catch (error) {
      if (error instanceof Error) devServer.ssrFixStacktrace(error);
      next(error);
    }
  });
} else {
  app.use(serverApp.createApp({ mode: "production" }));
}

const server = app.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  console.log(JSON.stringify({ level: 30, msg: "server listening", url: `http://${env.HOST}:${port}`, publicUrl: env.publicUrl, mode: development ? "development" : "production" }));
});
// Node closes an idle keep-alive connection after 5 s; a client (or a proxy in front) that reuses
// it just then gets a reset instead of an answer. Keep idle connections longer than the usual 60 s
// of load balancers, so the client side is always the one that closes them.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: 30, msg: "shutting down", signal }));
  const force = setTimeout(() => {
    console.error(JSON.stringify({ level: 50, msg: "shutdown timed out; exiting" }));
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  force.unref();
  // Stop accepting, let in-flight requests finish, then close the database.
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    // Realtime streams never finish by themselves: end them, their clients reconnect elsewhere.
    serverApp.endLongResponses();
  });
  await vite?.close();
  await services.stop();
  clearTimeout(force);
  process.exit(0);
}

process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
