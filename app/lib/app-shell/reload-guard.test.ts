import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guardedFullLoad, isReloadGuardActive, RELOAD_GUARD_KEY, RELOAD_GUARD_MS } from "./reload-guard";

// A minimal browser window: a working Web Storage and a location that records full loads.
// No DOM library is installed; the browser tests in tests/e2e cover the real thing.

class MemoryStorage implements Storage {
  #items = new Map<string, string>();
  get length(): number {
    return this.#items.size;
  }
  clear(): void {
    this.#items.clear();
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
}

/** Storage as in a sandboxed iframe or with storage disabled: every access throws. */
class BlockedStorage extends MemoryStorage {
  override getItem(): string | null {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
  override setItem(): void {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
}

let storage: Storage;
let loads: string[];
const hadWindow = "window" in globalThis;

function installWindow(sessionStorage: Storage | (() => Storage)): void {
  loads = [];
  const win = {
    location: { assign: (url: string) => void loads.push(url) },
  };
  Object.defineProperty(win, "sessionStorage", {
    get: typeof sessionStorage === "function" ? sessionStorage : () => sessionStorage,
  });
  (globalThis as { window?: unknown }).window = win;
}

beforeEach(() => {
  storage = new MemoryStorage();
  installWindow(storage);
});

afterEach(() => {
  if (!hadWindow) delete (globalThis as { window?: unknown }).window;
});

describe("guardedFullLoad", () => {
  const t0 = 1_800_000_000_000;

  it("loads the page in full the first time and stamps the guard", () => {
    expect(guardedFullLoad("https://forja.example/cotiza", t0)).toBe(true);
    expect(loads).toEqual(["https://forja.example/cotiza"]);
    expect(storage.getItem(RELOAD_GUARD_KEY)).toBe(String(t0));
    expect(isReloadGuardActive(t0)).toBe(true);
  });

  it("refuses a second full load within the guard window, so a broken deploy cannot loop", () => {
    guardedFullLoad("/a", t0);
    expect(guardedFullLoad("/b", t0 + 1)).toBe(false);
    expect(guardedFullLoad("/c", t0 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(loads).toEqual(["/a"]);
    expect(storage.getItem(RELOAD_GUARD_KEY)).toBe(String(t0));
  });

  it("allows another full load once the window has passed", () => {
    guardedFullLoad("/a", t0);
    expect(isReloadGuardActive(t0 + RELOAD_GUARD_MS)).toBe(false);
    expect(guardedFullLoad("/b", t0 + RELOAD_GUARD_MS)).toBe(true);
    expect(loads).toEqual(["/a", "/b"]);
    expect(storage.getItem(RELOAD_GUARD_KEY)).toBe(String(t0 + RELOAD_GUARD_MS));
  });

  it("ignores a missing or garbled stamp", () => {
    expect(isReloadGuardActive(t0)).toBe(false);
    for (const value of ["", "abc", "0", "-5", "NaN", "Infinity"]) {
      storage.setItem(RELOAD_GUARD_KEY, value);
      expect(isReloadGuardActive(t0), value).toBe(false);
    }
    expect(guardedFullLoad("/a", t0)).toBe(true);
  });

  it("uses the current time by default", () => {
    storage.setItem(RELOAD_GUARD_KEY, String(Date.now()));
    expect(isReloadGuardActive()).toBe(true);
    expect(guardedFullLoad("/a")).toBe(false);
    storage.setItem(RELOAD_GUARD_KEY, String(Date.now() - RELOAD_GUARD_MS - 1));
    expect(guardedFullLoad("/a")).toBe(true);
  });

  it("still reloads once when session storage throws", () => {
    installWindow(new BlockedStorage());
    expect(isReloadGuardActive(t0)).toBe(false);
    expect(guardedFullLoad("/a", t0)).toBe(true);
    expect(loads).toEqual(["/a"]);
  });

  it("still reloads when reading window.sessionStorage itself throws", () => {
    installWindow(() => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    });
    expect(isReloadGuardActive(t0)).toBe(false);
    expect(guardedFullLoad("/a", t0)).toBe(true);
    expect(loads).toEqual(["/a"]);
  });
});
