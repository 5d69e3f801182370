import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { SiteHeader } from "./site-header";

// The header's brand and phone are the business facts it is given (docs/decisions/0047): the
// name while no logo is chosen, the library picture once one is; the menu offers the call.

const facts = { name: "Taller Norte Maquinados", shortName: "Taller Norte", phone: { display: "442 555 0123", href: "tel:+524425550123" } };
const render = (logo: Parameters<typeof SiteHeader>[0]["logo"]) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SiteHeader facts={facts} logo={logo} accountLink={() => null} cartLink={() => null} />
    </MemoryRouter>,
  );

describe("SiteHeader", () => {
  it("shows the name without a logo, and offers the phone in the menu", () => {
    const html = render(null);
    expect(html).toContain("Taller Norte <span");
    expect(html).toContain("Maquinados</span>");
    expect(html).not.toContain("<picture");
    expect(html).toContain('href="tel:+524425550123"');
    expect(html).toContain("Llamar al 442 555 0123");
  });

  it("shows the chosen logo, named for the business and where the link goes", () => {
    const html = render({ id: "logo-1", alt: "Logotipo en fondo blanco", width: 800, height: 200, focalX: 0.5, focalY: 0.5, widths: [400, 800] });
    expect(html).toContain("<picture");
    expect(html).toContain('srcSet="/medios/logo-1/400.avif 400w, /medios/logo-1/800.avif 800w"');
    expect(html).toContain('alt="Taller Norte Maquinados, inicio"');
    expect(html).not.toContain("Maquinados</span>");
  });
});
