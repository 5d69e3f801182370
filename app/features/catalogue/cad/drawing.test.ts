import * as r from "replicad";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCadKernel } from "~/lib/cad-kernel";
import { drawingSvg, escapeXml, formatDimension, isPlainDrawing } from "./drawing";
import { projectViews } from "./projections";
import type { DrawingInput, ViewName } from "./types";

// Real parts, projected by the kernel and drawn: the SVG is a well-formed document that an `<img>`
// can size, that librsvg renders, with the views where first-angle projection puts them, the overall
// dimensions written in es-MX, every interpolated text escaped, and a size that stays small.

beforeAll(async () => {
  await loadCadKernel();
}, 60_000);

function sizeOf(shape: r.AnyShape) {
  const [min, max] = shape.boundingBox.bounds;
  return { x: max[0] - min[0], y: max[1] - min[1], z: max[2] - min[2] };
}

function drawingOf(shape: r.AnyShape, overrides: Partial<DrawingInput> = {}): string {
  return drawingSvg(inputOf(shape, overrides));
}

function inputOf(shape: r.AnyShape, overrides: Partial<DrawingInput> = {}): DrawingInput {
  return {
    title: "Placa base",
    sku: "FOR-PLA-100",
    material: "Acero ASTM A36",
    views: projectViews(r, shape),
    size: sizeOf(shape),
    notes: [],
    ...overrides,
  };
}

function plate(holes: [number, number][], size: [number, number, number] = [100, 60, 20], diameter = 8) {
  const cylinders = holes.map(([x, y]) => r.makeCylinder(diameter / 2, size[2] + 10, [x, y, -5]));
  return (r.makeBaseBox(...size) as r.Shape3D).cut(r.makeCompound(cylinders) as r.Compound);
}

const FOUR_HOLES: [number, number][] = [[-40, -20], [40, -20], [40, 20], [-40, 20]];

/** The texts of the dimensions (the only texts drawn with text-anchor middle at 3.5 size). */
function dimensionTexts(svg: string): string[] {
  return [...svg.matchAll(/<text [^>]*font-size="3.5"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
}

/** Each element opened is closed in order, attributes are quoted, and `&` only starts an entity. */
function expectWellFormed(svg: string) {
  expect(svg.startsWith("<svg ")).toBe(true);
  expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  const stack: string[] = [];
  for (const match of svg.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)) {
    const [, closing, name, , selfClosing] = match;
    if (selfClosing) continue;
    if (closing) expect(stack.pop()).toBe(name);
    else stack.push(name);
  }
  expect(stack).toEqual([]);
  // Every `<` starts a tag the pattern above understood.
  expect(svg.match(/</g)?.length).toBe([...svg.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g)].length);
  expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
}

/** A view's placement on the sheet, read from its group. */
function placement(svg: string, view: ViewName) {
  const match = svg.match(new RegExp(`<g data-view="${view}" transform="translate\\((\\S+) (\\S+)\\) scale\\((\\S+)\\)"`));
  if (!match) throw new Error(`no ${view} view`);
  return { x: Number(match[1]), y: Number(match[2]), scale: Number(match[3]) };
}

function sheetBox(svg: string, input: DrawingInput, view: ViewName) {
  const { x, y, scale } = placement(svg, view);
  const box = input.views[view].box;
  return { minX: x + box.minX * scale, minY: y + box.minY * scale, maxX: x + box.maxX * scale, maxY: y + box.maxY * scale };
}

describe("formatDimension", () => {
  it("writes millimetres in es-MX without trailing zeros or grouping", () => {
    expect(formatDimension(152.4)).toBe("152.4");
    expect(formatDimension(152.40000001)).toBe("152.4");
    expect(formatDimension(20)).toBe("20");
    expect(formatDimension(19.999999)).toBe("20");
    expect(formatDimension(1250.5)).toBe("1250.5");
    expect(formatDimension(0.125)).toBe("0.13");
  });
});

describe("isPlainDrawing", () => {
  it("accepts the drawings drawingSvg makes, hostile titles included, and nothing that runs or loads", () => {
    const svg = drawingOf(plate(FOUR_HOLES), { title: `Placa </svg><script>alert(1)</script><img src=x onerror=alert(1)>`, material: `"><a href="javascript:x">` });
    expect(isPlainDrawing(svg)).toBe(true);
    expect(isPlainDrawing(drawingOf(plate(FOUR_HOLES)))).toBe(true);
    const open = svg.slice(0, svg.indexOf(">") + 1);
    for (const hostile of [
      svg.replace("</svg>", "<script>alert(1)</script></svg>"),
      svg.replace("</svg>", '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>'),
      svg.replace(open, open.replace("<svg ", '<svg onload="alert(1)" ')),
      svg.replace(open, open.replace(" viewBox=", ' onload="alert(1)" viewBox=')),
      svg.replace("</svg>", '<a href="https://example.com"><text>x</text></a></svg>'),
      svg.replace("</svg>", '<image href="data:image/png;base64,AAAA"/></svg>'),
      svg.replace("</svg>", '<rect fill="url(https://example.com/x)"/></svg>'),
      svg.replace("</svg>", "<style>rect{fill:red}</style></svg>"),
      svg.replace("</svg>", '<rect fill="&#x75;rl(https://example.com/x)"/></svg>'),
      svg.replace("</svg>", "<!-- x --></svg>"),
      svg.replace("</svg>", "<text x=\"1>\"><script>alert(1)</script></text></svg>"),
      svg.replace("</svg>", '<rect onclick="alert(1)" width="1"/></svg>'),
      svg.replace("</svg>", '<rect width="1" style="fill:red"/></svg>'),
      svg.replace("</svg>", '<text\u00a0x="a onmouseover=alert(1) b">x</text></svg>'),
      svg.replace("</svg>", '<text x="1"\u00a0onmouseover="alert(1)">x</text></svg>'),
      svg.replace("</svg>", "<text x=\"a y='\">x</text></svg>"),
      svg.replace("</svg>", '<rect fill="url&#40;https://example.com/x#p)"/></svg>'),
      svg.replace("</svg>", '<rect fill="javascript:alert(1)"/></svg>'),
      svg.replace("</svg>", '<rect width=1 onclick=alert(1)/></svg>'),
      `${svg}<svg xmlns="http://www.w3.org/2000/svg"></svg>`,
      `<?xml version="1.0"?>${svg}`,
      "<html><svg></svg></html>",
    ]) {
      expect(isPlainDrawing(hostile), hostile.slice(-120)).toBe(false);
    }
  });
});

describe("escapeXml", () => {
  it("escapes markup and drops characters XML cannot carry", () => {
    expect(escapeXml(`<a href="x">&'`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    expect(escapeXml("Brida\u0000\u0007 2\u00a0in \ud83d")).toBe("Brida 2\u00a0in ");
  });
});

describe("drawingSvg", () => {
  it("draws a plate as a standalone, well-formed, accessible SVG sheet", () => {
    const svg = drawingOf(plate(FOUR_HOLES), {
      title: `Placa <&> "especial"`,
      sku: "FOR-<1>",
      material: "Acero & cromo",
      notes: [{ text: "4 × Ø 8 pasantes <rebabas & filos>" }],
    });
    expectWellFormed(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 420 297" width="1260" height="891" role="img"/);
    expect(svg).toContain("<title>Dibujo técnico: Placa &lt;&amp;&gt; &quot;especial&quot;</title>");
    expect(svg).toContain("FOR-&lt;1&gt;");
    expect(svg).toContain("Acero &amp; cromo");
    expect(svg).toContain("1. 4 × Ø 8 pasantes &lt;rebabas &amp; filos&gt;");
    expect(svg).not.toContain("<&>");
    // The title block.
    for (const text of ["Forja Diseño y Manufactura", "Acotaciones en mm", "Sin escala", "Primer ángulo (ISO E)", "Notas"]) {
      expect(svg).toContain(text);
    }
    // Overall width and height on the front view, depth on the side view.
    expect(dimensionTexts(svg).sort()).toEqual(["100", "20", "60"]);
    // Hidden lines dashed in their colour, visible ones solid and dark, the accent used.
    expect(svg).toMatch(/stroke="#4a5a6c" stroke-width="[\d.]+" stroke-dasharray="[\d.]+ [\d.]+"/);
    expect(svg).toMatch(/stroke="#171e26" stroke-width="[\d.]+" stroke-linecap="round"/);
    expect(svg).toContain("#c2410c");
  });

  it("names the code in the title block: SKU for catalogue parts, what the caller says otherwise", () => {
    const label = (svg: string) => /<text[^>]*>(SKU|Clave)<\/text>/.exec(svg)?.[1];
    expect(label(drawingOf(plate(FOUR_HOLES), { sku: "FOR-1" }))).toBe("SKU");
    const example = drawingOf(plate(FOUR_HOLES), { sku: "EJ-AER-01", codeLabel: "Clave" });
    expect(label(example)).toBe("Clave");
    expect(example).not.toMatch(/>SKU</);
  });

  it("lays the views out in first angle with one scale for the orthographic views", () => {
    const input = inputOf(plate(FOUR_HOLES));
    const svg = drawingSvg(input);
    const scales = (["front", "top", "right"] as const).map((view) => placement(svg, view).scale);
    expect(new Set(scales).size).toBe(1);
    const front = sheetBox(svg, input, "front");
    const top = sheetBox(svg, input, "top");
    const right = sheetBox(svg, input, "right");
    const iso = sheetBox(svg, input, "iso");
    // Top view below the front view, aligned with it; right view to its left, level with it.
    expect(top.minY).toBeGreaterThan(front.maxY);
    expect(top.minX).toBeCloseTo(front.minX, 1);
    expect(top.maxX - top.minX).toBeCloseTo(front.maxX - front.minX, 1);
    expect(right.maxX).toBeLessThan(front.minX);
    expect(right.minY).toBeCloseTo(front.minY, 1);
    // The isometric view in the free quadrant: below the right view, left of the top view.
    expect(iso.minY).toBeGreaterThan(right.maxY);
    expect(iso.maxX).toBeLessThan(top.minX);
    // The front view is 100 × 20 at the common scale; the dimension line spans it.
    const scale = scales[0];
    expect(front.maxX - front.minX).toBeCloseTo(100 * scale, 1);
    expect(front.maxY - front.minY).toBeCloseTo(20 * scale, 1);
    // All four views stay inside the sheet's frame, above the title block.
    for (const box of [front, top, right, iso]) {
      expect(box.minX).toBeGreaterThan(10);
      expect(box.minY).toBeGreaterThan(10);
      expect(box.maxX).toBeLessThan(410);
      expect(box.maxY).toBeLessThan(297 - 10 - 36);
    }
  });

  it("renders with librsvg, with the front view's outline drawn in dark ink", async () => {
    const input = inputOf(plate(FOUR_HOLES));
    const svg = drawingSvg(input);
    const { data, info } = await sharp(Buffer.from(svg)).flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBe(1260);
    expect(info.height).toBe(891);
    const darkAt = (x: number, y: number) => {
      // Any dark pixel within ±2 px of the sheet point (x, y), at 3 px per sheet millimetre.
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const px = Math.round(x * 3) + dx;
          const py = Math.round(y * 3) + dy;
          const i = (py * info.width + px) * info.channels;
          if (data[i] + data[i + 1] + data[i + 2] < 3 * 110) return true;
        }
      }
      return false;
    };
    const front = sheetBox(svg, input, "front");
    const middleX = (front.minX + front.maxX) / 2;
    const middleY = (front.minY + front.maxY) / 2;
    // The outline: top, bottom, left and right edges.
    expect(darkAt(middleX, front.minY)).toBe(true);
    expect(darkAt(middleX, front.maxY)).toBe(true);
    expect(darkAt(front.minX, middleY)).toBe(true);
    expect(darkAt(front.maxX, middleY)).toBe(true);
    // Inside the plate, between the holes, the sheet is white.
    expect(darkAt(middleX, middleY)).toBe(false);
    expect(await sharp(Buffer.from(svg)).png().toBuffer()).toBeInstanceOf(Buffer);
  });

  it("dimensions a 10 mm cube and a cylinder Ø 50 × 30", () => {
    const cube = drawingOf(r.makeBaseBox(10, 10, 10), { material: undefined });
    expectWellFormed(cube);
    expect(dimensionTexts(cube)).toEqual(["10", "10", "10"]);
    expect(cube).not.toContain("Material");

    const cylinder = drawingOf(r.makeCylinder(25, 30));
    expectWellFormed(cylinder);
    expect(dimensionTexts(cylinder).sort()).toEqual(["30", "50", "50"]);
  });

  it("keeps a plate with 80 holes under 150 KB", () => {
    const holes: [number, number][] = [];
    for (let i = 0; i < 10; i++) for (let j = 0; j < 8; j++) holes.push([-180 + i * 40, -84 + j * 24]);
    const svg = drawingOf(plate(holes, [400, 200, 12], 10));
    expectWellFormed(svg);
    expect(svg.length).toBeLessThan(150_000);
    expect(dimensionTexts(svg).sort()).toEqual(["12", "200", "400"]);
  });

  it("still draws the sheet for a part with nothing to project, and wraps a long name", async () => {
    const empty = r.makeCompound([]);
    const svg = drawingSvg({
      title: "Brida de cuello soldable de 4 pulgadas clase 150 con cara realzada y acabado galvanizado por inmersión en caliente",
      sku: "FOR-BRD-400",
      views: projectViews(r, empty),
      size: { x: 0, y: 0, z: 0 },
      notes: Array.from({ length: 30 }, (_, i) => ({ text: `Nota de fabricación número ${i + 1}` })),
    });
    expectWellFormed(svg);
    expect(svg).not.toContain("data-view");
    expect(svg).not.toContain("NaN");
    expect(svg).toContain("Forja Diseño y Manufactura");
    expect(svg).toContain("…");
    expect(await sharp(Buffer.from(svg)).png().toBuffer()).toBeInstanceOf(Buffer);
  });
});
