import { describe, expect, it } from "vitest";
import { ajustes } from "~/features/site/content-collections/ajustes";
import { factsFromAjustes } from "~/features/site/site-facts.server";
import { renderEmail } from "./templates.server";

const hostile = `<script>alert("x")</script> & <img src=x onerror=alert(1)>`;
// The facts of an `ajustes` record whose phone and postal code are not the seed's: what the email shows is what it is given.
const facts = factsFromAjustes({ ...ajustes.seed()[0]!, telefono: "442 555 0199", codigo_postal: "76120" });

describe("renderEmail", () => {
  const email = renderEmail({
    preheader: "Confirme su correo para activar su cuenta",
    heading: `Hola, ${hostile}`,
    paragraphs: ["Gracias por registrarse en Forja.", `Empresa: ${hostile}`],
    action: { label: "Confirmar mi correo", url: "https://forja.example/cuenta/confirmar?token=abc&x=1" },
    footerNote: "Si usted no creó esta cuenta, ignore este mensaje.",
  }, facts);

  it("produces a Spanish, table-based HTML document with the brand and contact data", () => {
    expect(email.html.startsWith("<!DOCTYPE html><html lang=\"es-MX\"")).toBe(true);
    expect(email.html).toContain('role="presentation"');
    expect(email.html).toContain("Confirme su correo para activar su cuenta");
    expect(email.html).toContain("Gracias por registrarse en Forja.");
    expect(email.html).toContain(facts.legalName);
    expect(email.html).toContain("CP 76120");
    expect(email.html).toContain('href="tel:+524425550199"');
    expect(email.html).toContain("442 555 0199");
    expect(email.html).not.toMatch(/<style|<link|class=/); // inline styles only
  });

  it("escapes HTML in every input", () => {
    expect(email.html).not.toContain("<script>");
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;");
    // The link's ampersand is an attribute entity in HTML and written out verbatim in the text.
    expect(email.html).toContain('href="https://forja.example/cuenta/confirmar?token=abc&amp;x=1"');
  });

  it("has a plain-text twin with the URL written out in full", () => {
    expect(email.text).toContain(`Hola, ${hostile}`); // plain text is not HTML: nothing to escape
    expect(email.text).toContain("Confirmar mi correo:\nhttps://forja.example/cuenta/confirmar?token=abc&x=1");
    expect(email.text).toContain("Si usted no creó esta cuenta, ignore este mensaje.");
    expect(email.text).toContain("Tel. 442 555 0199");
    expect(email.text).not.toMatch(/<(p|a|table|td|br|h1|div|span)[\s>]/); // no markup of the layout
  });

  it("renders without an action or a footer note", () => {
    const plain = renderEmail({ preheader: "Aviso", heading: "Recibimos su solicitud", paragraphs: ["Le responderemos pronto."] }, facts);
    expect(plain.html).not.toContain("<a href=\"http");
    expect(plain.text.startsWith("Recibimos su solicitud\n\nLe responderemos pronto.\n\n--\n")).toBe(true);
  });

  it("refuses links that are not absolute http(s) URLs", () => {
    expect(() => renderEmail({ preheader: "x", heading: "x", paragraphs: [], action: { label: "x", url: "javascript:alert(1)" } }, facts)).toThrow(/http/);
    expect(() => renderEmail({ preheader: "x", heading: "x", paragraphs: [], action: { label: "x", url: "/cuenta" } }, facts)).toThrow(/absoluta/);
  });
});
