import type { CSSProperties, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { PublicSiteFacts } from "~/services/site-config/business-facts";

// The branded layout every email is built from. Email clients ignore stylesheets and most modern
// CSS, hence tables and inline styles. React escapes every string it renders.

export interface EmailAction {
  label: string;
  /** An absolute URL (https://… or http://…); written out in full in the text version. */
  url: string;
}

export interface EmailContent {
  /** Short summary shown by mail clients next to the subject; hidden in the body. */
  preheader: string;
  heading: string;
  paragraphs: string[];
  action?: EmailAction;
  /** Small print under the content, e.g. "Si usted no solicitó este cambio, ignore este mensaje." */
  footerNote?: string;
}

/** The business facts every email's header and footer show, read by the sender at the time of sending (docs/decisions/0047). */
export type EmailFacts = Pick<PublicSiteFacts, "name" | "shortName" | "legalName" | "address" | "phone" | "email" | "hours">;

export interface RenderedEmail {
  html: string;
  text: string;
}

const colors = {
  brand: "#c2410c", // forja-600: white text on it passes WCAG AA
  ink: "#171e26", // acero-900
  muted: "#4a5a6c", // acero-600
  line: "#cdd5de", // acero-200
  page: "#f5f7f9", // acero-50
  white: "#ffffff",
};

const font = "Arial, 'Helvetica Neue', Helvetica, sans-serif";

const styles = {
  body: { margin: 0, padding: 0, backgroundColor: colors.page, fontFamily: font, color: colors.ink },
  preheader: {
    display: "none",
    maxHeight: 0,
    maxWidth: 0,
    overflow: "hidden",
    opacity: 0,
    fontSize: "1px",
    lineHeight: "1px",
    color: colors.page,
  },
  outer: { width: "100%", backgroundColor: colors.page },
  card: { width: "100%", maxWidth: "600px", backgroundColor: colors.white, border: `1px solid ${colors.line}`, borderRadius: "6px" },
  header: { backgroundColor: colors.ink, padding: "20px 32px", borderRadius: "6px 6px 0 0" },
  brand: { margin: 0, fontSize: "20px", lineHeight: "28px", fontWeight: 700, color: colors.white },
  brandAccent: { color: "#ffb489" },
  content: { padding: "32px" },
  heading: { margin: "0 0 16px", fontSize: "22px", lineHeight: "30px", fontWeight: 700, color: colors.ink },
  paragraph: { margin: "0 0 16px", fontSize: "16px", lineHeight: "24px", color: colors.ink },
  buttonCell: { borderRadius: "4px", backgroundColor: colors.brand },
  button: {
    display: "inline-block",
    padding: "12px 24px",
    fontSize: "16px",
    lineHeight: "24px",
    fontWeight: 700,
    color: colors.white,
    textDecoration: "none",
    borderRadius: "4px",
  },
  fallback: { margin: "16px 0 0", fontSize: "13px", lineHeight: "20px", color: colors.muted, wordBreak: "break-all" },
  link: { color: colors.brand },
  note: { margin: "24px 0 0", paddingTop: "16px", borderTop: `1px solid ${colors.line}`, fontSize: "13px", lineHeight: "20px", color: colors.muted },
  footer: { padding: "20px 32px", fontSize: "12px", lineHeight: "18px", color: colors.muted },
} satisfies Record<string, CSSProperties>;

function PresentationTable({ style, children, width }: { style?: CSSProperties; children: ReactNode; width?: string }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} border={0} width={width} style={style}>
      <tbody>{children}</tbody>
    </table>
  );
}

function EmailLayout({ content, facts }: { content: EmailContent; facts: EmailFacts }) {
  const { preheader, heading, paragraphs, action, footerNote } = content;
  return (
    <html lang="es-MX" dir="ltr">
      <head>
        <meta httpEquiv="Content-Type" content="text/html; charset=UTF-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{heading}</title>
      </head>
      <body style={styles.body}>
        <div style={styles.preheader} aria-hidden="true">
          {preheader}
        </div>
        <PresentationTable style={styles.outer} width="100%">
          <tr>
            <td align="center" style={{ padding: "24px 12px" }}>
              <PresentationTable style={styles.card} width="600">
                <tr>
                  <td style={styles.header}>
                    <p style={styles.brand}>
                      <span style={styles.brandAccent}>{facts.shortName}</span>{" "}
                      {facts.name.replace(facts.shortName, "").trim()}
                    </p>
                  </td>
                </tr>
                <tr>
                  <td style={styles.content}>
                    <h1 style={styles.heading}>{heading}</h1>
                    {paragraphs.map((paragraph, index) => (
                      <p key={index} style={styles.paragraph}>
                        {paragraph}
                      </p>
                    ))}
                    {action ? (
                      <>
                        <PresentationTable style={{ margin: "8px 0 0" }}>
                          <tr>
                            <td style={styles.buttonCell}>
                              <a href={action.url} style={styles.button} target="_blank" rel="noopener noreferrer">
                                {action.label}
                              </a>
                            </td>
                          </tr>
                        </PresentationTable>
                        <p style={styles.fallback}>
                          Si el botón no funciona, copie y pegue este enlace en su navegador:{" "}
                          <a href={action.url} style={styles.link}>
                            {action.url}
                          </a>
                        </p>
                      </>
                    ) : null}
                    {footerNote ? <p style={styles.note}>{footerNote}</p> : null}
                  </td>
                </tr>
              </PresentationTable>
              <PresentationTable width="600" style={{ width: "100%", maxWidth: "600px" }}>
                <tr>
                  <td style={styles.footer} align="center">
                    <strong>{facts.legalName}</strong>
                    <br />
                    {facts.address.formatted}
                    <br />
                    Tel.{" "}
                    <a href={facts.phone.href} style={{ color: colors.muted }}>
                      {facts.phone.display}
                    </a>{" "}
                    ·{" "}
                    <a href={`mailto:${facts.email}`} style={{ color: colors.muted }}>
                      {facts.email}
                    </a>
                    <br />
                    {facts.hours.label}
                  </td>
                </tr>
              </PresentationTable>
            </td>
          </tr>
        </PresentationTable>
      </body>
    </html>
  );
}

function renderText(content: EmailContent, facts: EmailFacts): string {
  const blocks: string[] = [content.heading, ...content.paragraphs];
  if (content.action) blocks.push(`${content.action.label}:\n${content.action.url}`);
  if (content.footerNote) blocks.push(content.footerNote);
  blocks.push(
    [
      "--",
      facts.legalName,
      facts.address.formatted,
      `Tel. ${facts.phone.display} · ${facts.email}`,
      facts.hours.label,
    ].join("\n"),
  );
  return `${blocks.map((block) => block.trim()).join("\n\n")}\n`;
}

/** Throws unless the content can be rendered (its action's URL absolute http(s)): checked when a message is written, not only when it is sent. */
export function assertRenderable(content: EmailContent): void {
  if (content.action) assertSafeUrl(content.action.url);
}

function assertSafeUrl(url: string): void {
  // Only web links: a javascript: or data: URL in an email is never what a feature meant.
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`La URL del correo debe ser absoluta: ${url}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`La URL del correo debe ser http(s): ${url}`);
}

/**
 * Renders an email in the brand's layout: HTML (inline styles, tables) plus its plain-text twin. The
 * facts are the sender's `getSiteFacts()`, read before the transaction that writes the email (on
 * PGlite a read outside a running transaction waits for it).
 */
export function renderEmail(content: EmailContent, facts: EmailFacts): RenderedEmail {
  assertRenderable(content);
  const html = `<!DOCTYPE html>${renderToStaticMarkup(<EmailLayout content={content} facts={facts} />)}`;
  return { html, text: renderText(content, facts) };
}
