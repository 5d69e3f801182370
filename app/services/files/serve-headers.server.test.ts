import { describe, expect, it } from "vitest";
import { contentDisposition, downloadFileName, FILE_RESPONSE_CSP, servedContentType, storedFileHeaders } from "./serve-headers.server";

// The headers every stored file is served with (docs/decisions/0036).

describe("servedContentType", () => {
  it("sends a detected type from the list, anything else as application/octet-stream", () => {
    expect(servedContentType("model/step")).toBe("model/step");
    expect(servedContentType("image/png")).toBe("image/png");
    expect(servedContentType("IMAGE/JPG")).toBe("image/jpeg");
    expect(servedContentType("application/pdf; charset=binary")).toBe("application/pdf");
    for (const unsafe of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/javascript", "text/plain", "", null, undefined]) {
      expect(servedContentType(unsafe), String(unsafe)).toBe("application/octet-stream");
    }
  });
});

describe("contentDisposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name (RFC 5987)", () => {
    expect(contentDisposition("Ménsula (rev 2).step")).toBe(`attachment; filename="Mensula (rev 2).step"; filename*=UTF-8''M%C3%A9nsula%20%28rev%202%29.step`);
    expect(contentDisposition('a"b;c%d\r\n.pdf')).toBe(`attachment; filename="a_b_c_d.pdf"; filename*=UTF-8''a%22b%3Bc%25d.pdf`);
    expect(contentDisposition("")).toBe(`attachment; filename="archivo"; filename*=UTF-8''archivo`);
  });

  it("drops paths, control characters and bidi overrides", () => {
    expect(downloadFileName("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(downloadFileName("..\\..\\windows\\win.ini")).toBe("_.._windows_win.ini");
    // "factura‮fdp.exe" shows as "facturaexe.pdf" with the override.
    expect(downloadFileName("factura\u202Efdp.exe")).toBe("facturafdp.exe");
    expect(downloadFileName("a\u2066b\u2069c\u200F\u0000\u001b.step")).toBe("abc.step");
    const header = contentDisposition("../\u202Eevil\u0007.step");
    expect(header).toBe(`attachment; filename="_evil.step"; filename*=UTF-8''_evil.step`);
  });

  it("shortens a very long name to 200 characters, keeping the extension", () => {
    const name = `${"ñ".repeat(300)}.step`;
    const short = downloadFileName(name);
    expect(Array.from(short)).toHaveLength(200);
    expect(short.endsWith(".step")).toBe(true);
    expect(contentDisposition(name)).toMatch(/^attachment; filename="n{195}\.step"; filename\*=UTF-8''(%C3%B1){195}\.step$/);
  });
});

describe("storedFileHeaders", () => {
  const headersOf = (file: Parameters<typeof storedFileHeaders>[0]) => Object.fromEntries(storedFileHeaders(file).entries());

  it("serves every file as a sandboxed, unsniffed download of its detected type", () => {
    expect(headersOf({ type: "model/step", name: "pieza.step", size: 10 })).toEqual({
      "content-type": "model/step",
      "content-disposition": `attachment; filename="pieza.step"; filename*=UTF-8''pieza.step`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
      "cache-control": "private, no-store",
      "content-length": "10",
    });
    expect(FILE_RESPONSE_CSP).toBe("sandbox; default-src 'none'");
  });

  it("lets only raster images be inline", () => {
    for (const type of ["image/png", "image/jpeg", "image/webp", "image/avif"]) expect(headersOf({ type, name: "foto", inline: true })["content-disposition"]).toMatch(/^inline;/);
    for (const type of ["application/pdf", "image/svg+xml", "text/html", "model/obj"]) {
      const headers = headersOf({ type, name: "x", inline: true });
      expect(headers["content-disposition"], type).toMatch(/^attachment;/);
      expect(headers["content-type"]).not.toMatch(/html|svg/);
    }
  });
});
