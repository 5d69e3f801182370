import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

function errorOf(source: Record<string, string | undefined>): Error {
  try {
    parseEnv(source);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`parseEnv accepted ${JSON.stringify(source)}`);
}

describe("parseEnv defaults", () => {
  const env = parseEnv({});

  it("listens on 127.0.0.1:3000 in production mode", () => {
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("127.0.0.1");
    expect(env.NODE_ENV).toBe("production");
  });

  it("resolves DATA_DIR ./data to an absolute path", () => {
    expect(env.DATA_DIR).toBe("./data");
    expect(env.dataDir).toBe(path.resolve("./data"));
    expect(path.isAbsolute(env.dataDir)).toBe(true);
  });

  it("uses PGlite, a localhost public URL, info logs and a loopback proxy", () => {
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.publicUrl).toBe("http://localhost:3000");
    expect(env.logLevel).toBe("info");
    expect(env.TRUST_PROXY).toBe("loopback");
  });
});

describe("parseEnv with values", () => {
  it("follows PORT in the default public URL", () => {
    expect(parseEnv({ PORT: "8080" })).toMatchObject({ PORT: 8080, publicUrl: "http://localhost:8080" });
  });

  it("keeps PUBLIC_URL without trailing slashes", () => {
    expect(parseEnv({ PUBLIC_URL: "https://forja.example/" }).publicUrl).toBe("https://forja.example");
    expect(parseEnv({ PUBLIC_URL: "https://forja.example//" }).publicUrl).toBe("https://forja.example");
    expect(parseEnv({ PUBLIC_URL: "https://forja.example" }).publicUrl).toBe("https://forja.example");
  });

  it("accepts postgres:// and postgresql:// URLs and treats an empty DATABASE_URL as absent", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://u:p@127.0.0.1:5432/forja" }).DATABASE_URL).toBe("postgres://u:p@127.0.0.1:5432/forja");
    expect(parseEnv({ DATABASE_URL: "postgresql://127.0.0.1/forja" }).DATABASE_URL).toBe("postgresql://127.0.0.1/forja");
    expect(parseEnv({ DATABASE_URL: "" }).DATABASE_URL).toBeUndefined();
  });

  it("resolves a relative DATA_DIR and keeps an absolute one", () => {
    expect(parseEnv({ DATA_DIR: "tmp/x" }).dataDir).toBe(path.resolve("tmp/x"));
    expect(parseEnv({ DATA_DIR: "/var/lib/forja" }).dataDir).toBe("/var/lib/forja");
  });

  it("quiets logs in test mode unless LOG_LEVEL says otherwise", () => {
    expect(parseEnv({ NODE_ENV: "test" }).logLevel).toBe("warn");
    expect(parseEnv({ NODE_ENV: "test", LOG_LEVEL: "debug" }).logLevel).toBe("debug");
    expect(parseEnv({ NODE_ENV: "development" }).logLevel).toBe("info");
  });

  it("reads TRUST_PROXY as a boolean, a hop count or a list", () => {
    expect(parseEnv({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "10.0.0.1, 10.0.0.2" }).TRUST_PROXY).toBe("10.0.0.1, 10.0.0.2");
  });
});

describe("parseEnv errors name the variable", () => {
  it.each([
    ["PORT", { PORT: "abc" }],
    ["PORT", { PORT: "70000" }],
    ["PORT", { PORT: "-1" }],
    ["PORT", { PORT: "80.5" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://127.0.0.1/forja" }],
    ["DATABASE_URL", { DATABASE_URL: "127.0.0.1:5432" }],
    ["PUBLIC_URL", { PUBLIC_URL: "forja.example" }],
    ["PUBLIC_URL", { PUBLIC_URL: "not a url" }],
    ["NODE_ENV", { NODE_ENV: "staging" }],
    ["LOG_LEVEL", { LOG_LEVEL: "verbose" }],
    ["HOST", { HOST: "" }],
  ])("%s in %j", (name, source) => {
    const error = errorOf(source);
    expect(error.message).toContain("variables de entorno");
    expect(error.message).toMatch(new RegExp(`^\\s+${name}:`, "m"));
  });

  it("names every bad variable in one error", () => {
    const error = errorOf({ PORT: "abc", DATABASE_URL: "mysql://x", PUBLIC_URL: "nope" });
    for (const name of ["PORT", "DATABASE_URL", "PUBLIC_URL"]) expect(error.message).toMatch(new RegExp(`^\\s+${name}:`, "m"));
  });

  it("explains the expected DATABASE_URL and PUBLIC_URL forms in Spanish", () => {
    expect(errorOf({ DATABASE_URL: "mysql://x" }).message).toContain("postgres://");
    expect(errorOf({ PUBLIC_URL: "nope" }).message).toContain("URL completa");
  });
});
