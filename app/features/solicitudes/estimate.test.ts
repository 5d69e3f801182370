import { describe, expect, it } from "vitest";
import { buildEstimate, measureStl, priceMeasurement } from "./estimate";
import { estimatePrice } from "./price-rules";
import { StlParseError } from "./stl-geometry";
import { boxMesh, toAsciiStl, toBinaryStl, uvSphereMesh } from "./stl-test-meshes";

const file = toBinaryStl(boxMesh([10, 20, 30]));

describe("buildEstimate", () => {
  it("combines geometry and the price range, IVA included", () => {
    const estimate = buildEstimate({ fileId: "f-1", fileName: "soporte.stl", bytes: file, service: "prototipado-rapido", quantity: 1 });
    expect(estimate).toEqual({
      fileId: "f-1",
      fileName: "soporte.stl",
      volumeMm3: 6000,
      bbox: { x: 10, y: 20, z: 30 },
      triangles: 12,
      closed: true,
      price: { service: "prototipado-rapido", minCentavos: 40_600, maxCentavos: 139_200 },
    });
  });

  it("leaves the price out without a service or for a service without a rule", () => {
    for (const service of [undefined, null, "", "moldes-inyeccion"]) {
      const estimate = buildEstimate({ fileId: "f", fileName: "a.stl", bytes: file, service, quantity: 5 });
      expect(estimate).not.toHaveProperty("price");
      expect(estimate.volumeMm3).toBe(6000);
    }
  });

  it("rounds the geometry to the micrometre and prices from the rounded figures", () => {
    const { triangles } = uvSphereMesh(17.3, 24, 36);
    const estimate = buildEstimate({ fileId: "f", fileName: "esfera.stl", bytes: toBinaryStl(triangles), service: "maquinado-cnc", quantity: 25 });
    for (const value of [estimate.volumeMm3, estimate.bbox.x, estimate.bbox.y, estimate.bbox.z]) {
      expect(Math.round(value * 1000) / 1000).toBe(value);
    }
    expect(estimate.price).toEqual({ service: "maquinado-cnc", ...estimatePrice("maquinado-cnc", estimate, 25)! });
  });

  it("gives the same figures for binary and ASCII, and after a JSON round trip of the stored estimate", () => {
    const { triangles } = uvSphereMesh(8.25, 10, 14);
    const input = { fileId: "f", fileName: "p.stl", service: "prototipado-rapido", quantity: 12 };
    const binary = buildEstimate({ ...input, bytes: toBinaryStl(triangles) });
    const text = buildEstimate({ ...input, bytes: new TextEncoder().encode(toAsciiStl(triangles)) });
    expect(text).toEqual(binary);
    const stored = JSON.parse(JSON.stringify(binary));
    expect(stored).toEqual(binary);
    expect(priceMeasurement(stored, "prototipado-rapido", 12)).toEqual(binary.price);
  });

  it("measures the same in the browser path (measure, then price) as in buildEstimate", () => {
    const measurement = measureStl(file.buffer as ArrayBuffer);
    const estimate = buildEstimate({ fileId: "f", fileName: "a.stl", bytes: file, service: "maquinado-cnc", quantity: 3 });
    expect({ ...measurement, price: priceMeasurement(measurement, "maquinado-cnc", 3) }).toEqual({ ...estimate, fileId: undefined, fileName: undefined });
  });

  it("throws the Spanish StlParseError for a malformed file", () => {
    expect(() => buildEstimate({ fileId: "f", fileName: "roto.stl", bytes: new TextEncoder().encode("solid x\nfacet normal 0 0 1\n"), service: undefined, quantity: 1 })).toThrow(
      StlParseError,
    );
  });
});
