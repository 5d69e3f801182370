import { describe, expect, it } from "vitest";
import {
  asciiDxfFile,
  asciiStlFile,
  binaryDxfFile,
  binaryStlFile,
  dwgFile,
  igesFile,
  jpgFile,
  objFile,
  pdfFile,
  peek,
  pngFile,
  sldprtFile,
  stepFile,
  threeMfFile,
  windowsExeFile,
  zipFile,
} from "../../../tests/support/minimal-files";
import { detectFileKind, KIND_BY_EXTENSION, MIME_BY_KIND, type FileKind } from "./detect-type.server";

// Type detection by content: each accepted format as a real minimal file, and files whose content
// does not match the extension they claim.

const detect = (name: string, bytes: Uint8Array) => detectFileKind({ name, ...peek(bytes) });
const text = (value: string) => new Uint8Array(Buffer.from(value, "utf8"));

describe("detectFileKind accepts real files of every format", () => {
  const cases: [string, () => Uint8Array, FileKind][] = [
    ["soporte.step", stepFile, "step"],
    ["SOPORTE.STP", stepFile, "step"],
    ["brida.iges", igesFile, "iges"],
    ["brida.igs", igesFile, "iges"],
    ["caja-binaria.stl", () => binaryStlFile(), "stl"],
    ["caja-solid.stl", () => binaryStlFile("solid exported by a CAD that writes solid in binary headers"), "stl"],
    ["caja-ascii.stl", asciiStlFile, "stl"],
    ["placa.3mf", threeMfFile, "3mf"],
    ["triangulo.obj", objFile, "obj"],
    ["carcasa.SLDPRT", sldprtFile, "sldprt"],
    ["contorno.dxf", asciiDxfFile, "dxf"],
    ["contorno-binario.dxf", binaryDxfFile, "dxf"],
    ["ensamble.dwg", dwgFile, "dwg"],
    ["plano.pdf", pdfFile, "pdf"],
    ["foto.png", pngFile, "png"],
    ["foto.jpg", jpgFile, "jpg"],
    ["foto.jpeg", jpgFile, "jpg"],
  ];

  it.each(cases)("%s → %s", (name, make, kind) => {
    expect(detect(name, make())).toBe(kind);
  });

  it("every accepted extension has a MIME type", () => {
    for (const kind of Object.values(KIND_BY_EXTENSION)) expect(MIME_BY_KIND[kind]).toMatch(/^[a-z]+\/[\w.+-]+$/);
  });

  it("accepts a STEP file with a UTF-8 byte order mark and leading blank lines", () => {
    expect(detect("pieza.step", new Uint8Array([0xef, 0xbb, 0xbf, ...text("\r\n\r\n"), ...stepFile()]))).toBe("step");
  });

  it("finds 3dmodel.model in the central directory at the end of a large 3MF package", () => {
    // A 200 KiB entry first: the model's own local header is past the first 64 KiB.
    const pkg = zipFile([
      { name: "Metadata/notas.txt", content: "x".repeat(200 * 1024) },
      { name: "3D/3dmodel.model", content: '<?xml version="1.0"?><model unit="millimeter"/>' },
    ]);
    expect(peek(pkg).head.includes(Buffer.from("3dmodel.model"))).toBe(false);
    expect(detect("grande.3mf", pkg)).toBe("3mf");
  });
});

describe("detectFileKind rejects content that does not match the extension", () => {
  const cases: [string, string, () => Uint8Array][] = [
    ["a Windows executable renamed .step", "instalador.step", windowsExeFile],
    ["a Windows executable renamed .stl", "instalador.stl", windowsExeFile],
    ["a Windows executable renamed .sldprt", "instalador.sldprt", windowsExeFile],
    ["a PNG renamed .pdf", "plano.pdf", pngFile],
    ["a PDF renamed .png", "foto.png", pdfFile],
    ["a JPG renamed .png", "foto.png", jpgFile],
    ["plain text renamed .stl", "pieza.stl", () => text("Hola, les envío la pieza por correo.\n")],
    ["plain text renamed .step", "pieza.step", () => text("Hola, les envío la pieza por correo.\n")],
    ["plain text renamed .dwg", "pieza.dwg", () => text("Hola, les envío la pieza por correo.\n")],
    ["plain text renamed .iges", "pieza.iges", () => text("Hola, les envío la pieza por correo.\n")],
    ["plain text renamed .dxf", "pieza.dxf", () => text("Hola, les envío la pieza por correo.\n")],
    ["a STEP file renamed .iges", "pieza.iges", stepFile],
    ["a plain ZIP renamed .3mf", "pieza.3mf", () => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...text("documento.docx"), 0, 0, 0])],
    ["a binary STL whose triangle count does not match its size", "pieza.stl", () => binaryStlFile().subarray(0, 84 + 50 * 11)],
    ["an executable renamed .obj", "pieza.obj", windowsExeFile],
  ];

  it.each(cases)("%s", (_label, name, make) => {
    expect(detect(name, make())).toBeNull();
  });

  it("rejects an empty file whatever its extension", () => {
    for (const name of ["vacio.step", "vacio.stl", "vacio.pdf", "vacio.obj", "vacio.png"]) {
      expect(detectFileKind({ name, head: Buffer.alloc(0), tail: Buffer.alloc(0), size: 0 })).toBeNull();
    }
  });

  it("rejects unknown or missing extensions even with valid content", () => {
    expect(detect("instalador.exe", windowsExeFile())).toBeNull();
    expect(detect("plano.docx", pdfFile())).toBeNull();
    expect(detect("pieza.step.exe", stepFile())).toBeNull();
    expect(detect("pieza", stepFile())).toBeNull();
    expect(detect("paquete.zip", threeMfFile())).toBeNull();
  });
});

describe("detectFileKind and HTML polyglots (docs/decisions/0036)", () => {
  const html = '<!DOCTYPE html>\n<html><body><script>alert(document.cookie)</script></body></html>\n';

  it("refuses HTML named .obj or .dxf, even with an OBJ-looking line or a DXF start", () => {
    expect(detect("pieza.obj", text(html))).toBeNull();
    expect(detect("pieza.obj", text(`<html>\nv 0 0 0\nf 1 2 3\n<script>alert(1)</script>\n`))).toBeNull();
    expect(detect("pieza.obj", text(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n${html}`))).toBeNull();
    expect(detect("pieza.dxf", text(html))).toBeNull();
    expect(detect("pieza.dxf", text(`0\nSECTION\n2\nHEADER\n${html}`))).toBeNull();
  });

  it("still accepts real OBJ and DXF: comments, blank lines, groups, materials, continued lines, CRLF", () => {
    expect(detect("pieza.obj", text("# Blender\r\nmtllib pieza.mtl\r\no Cubo\r\nv 1 1 1\r\nv -1 1 1\r\nv 1 -1 1\r\n\r\nusemtl acero\r\ns off\r\ng\r\nf 1 \\\r\n 2 3\r\n"))).toBe("obj");
    expect(detect("contorno.dxf", asciiDxfFile())).toBe("dxf");
    expect(detect("contorno.dxf", text("0\nSECTION\n2\nENTITIES\n0\nTEXT\n1\n<nota> en el plano\n0\nENDSEC\n0\nEOF\n"))).toBe("dxf");
  });

  it("keeps a valid header with HTML behind it as that format (stored, served only as a download)", () => {
    const step = Buffer.concat([Buffer.from(stepFile()), Buffer.from(html)]);
    const png = Buffer.concat([Buffer.from(pngFile()), Buffer.from(html)]);
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from(html)]);
    expect(detect("pieza.step", step)).toBe("step");
    expect(detect("foto.png", png)).toBe("png");
    expect(detect("plano.pdf", pdf)).toBe("pdf");
  });
});
