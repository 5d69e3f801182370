import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { countIfWrite, QUIET_MS, writeRequestStarted, writesSettled } from "./foreground.server";

// The count of write requests in flight that background jobs wait for (docs/decisions/0073, 0075):
// by hand, and through a real HTTP server whose requests are counted as the app counts them.

/** Whether `promise` settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  clearTimeout(timer);
  return settled;
}

describe("writesSettled", () => {
  it("resolves at once with no write in flight, and once the last of several writes has been over for QUIET_MS", async () => {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(await settledWithin(writesSettled(), 50)).toBe(true);
    const first = writeRequestStarted();
    const second = writeRequestStarted();
    const settled = writesSettled();
    first();
    // Ending the same write twice does not count as the other one ending.
    first();
    expect(await settledWithin(settled, 100)).toBe(false);
    const lastEnded = performance.now();
    second();
    expect(await settledWithin(settled, QUIET_MS / 2)).toBe(false);
    expect(await settledWithin(settled, QUIET_MS + 500)).toBe(true);
    expect(performance.now() - lastEnded).toBeGreaterThanOrEqual(QUIET_MS - 5);
  });

  it("keeps waiting when the next write starts within QUIET_MS of the last one's end (a busy server, not a pause)", async () => {
    let ended = writeRequestStarted();
    const settled = writesSettled(undefined, 60_000);
    // One write after another, each starting 20 ms after the previous ended: the count touches zero
    // each time, for far less than QUIET_MS.
    for (let round = 0; round < 8; round += 1) {
      ended();
      await new Promise((resolve) => setTimeout(resolve, 20));
      ended = writeRequestStarted();
      expect(await settledWithin(settled, 20)).toBe(false);
    }
    ended();
    expect(await settledWithin(settled, QUIET_MS + 500)).toBe(true);
  });

  it("gives up waiting after maxMs, and at once when its signal aborts", async () => {
    const ended = writeRequestStarted();
    try {
      expect(await settledWithin(writesSettled(undefined, 100), 1_000)).toBe(true);
      const stop = new AbortController();
      const waiting = writesSettled(stop.signal, 60_000);
      stop.abort();
      expect(await settledWithin(waiting, 100)).toBe(true);
      expect(await settledWithin(writesSettled(stop.signal, 60_000), 50)).toBe(true);
    } finally {
      ended();
    }
  });
});

describe("countIfWrite on a real server", () => {
  it("counts a POST until its response closes, and never a GET that stays open", async () => {
    let finishPost: (() => void) | undefined;
    const server = http.createServer((request, response) => {
      countIfWrite(request.method ?? "GET", response);
      if (request.method === "POST") {
        finishPost = () => response.end("{}");
        return;
      }
      // A stream that stays open, like the realtime one.
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(":\n\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stream = new AbortController();
    try {
      const open = await fetch(url, { signal: stream.signal });
      expect(open.status).toBe(200);
      expect(await settledWithin(writesSettled(), QUIET_MS + 200), "an open GET is not a write").toBe(true);

      const posted = fetch(url, { method: "POST", body: "{}" });
      await expect.poll(() => finishPost !== undefined).toBe(true);
      const settled = writesSettled(undefined, 60_000);
      expect(await settledWithin(settled, 200)).toBe(false);
      finishPost!();
      await (await posted).text();
      expect(await settledWithin(settled, 1_000)).toBe(true);
    } finally {
      stream.abort();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
