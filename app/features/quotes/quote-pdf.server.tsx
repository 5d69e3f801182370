import { Document, Font, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import type { SiteFacts } from "~/services/site-config/business-facts";
import { getSiteFacts } from "~/features/site/index.server";
import { formatCount, formatDate, formatDateTime, formatMoney, formatWorkingDays } from "~/lib/format";
import { getQuoteForCustomer, getQuoteForStaff } from "./read.server";
import type { QuoteStatus } from "./states";
import type { QuoteLine } from "./types";
import { QUOTE_STATUSES } from "./forms";
import { quotePaymentAmountText, quotePaymentReferenceText, type SpeiDetails } from "./payment";
import { quotePaymentDetails } from "./payment.server";
import { formatDiscount, formatLineQuantity } from "./totals";

// The quote as a branded PDF, rendered on the server with @react-pdf/renderer. It uses the PDF's
// built-in Helvetica (WinAnsi): every Spanish letter (á é í ó ú ü ñ ¿ ¡) is in it, so no font file
// ships with the app. Text is cleaned of the few Unicode spaces Intl may emit that WinAnsi lacks.

// Spanish words must not be broken with English hyphenation rules: wrap on spaces only.
Font.registerHyphenationCallback((word) => [word]);

export interface QuotePdfDocument {
  number: string;
  revision: number;
  /** A revision not sent yet (staff preview): marked "BORRADOR" on every page. */
  draft: boolean;
  status: QuoteStatus;
  sentAt: Date | null;
  validUntil: Date | null;
  validityDays: number;
  customer: { name: string; company: string | null; email: string };
  lines: QuoteLine[];
  subtotalCentavos: number;
  ivaCentavos: number;
  totalCentavos: number;
  leadTimeDays: number;
  terms: string;
  acceptance: { name: string; at: Date; ip: string | null } | null;
  rejection: { reason: string | null; note: string | null; at: Date | null } | null;
  /** The SPEI details once accepted (payment.server.ts); null otherwise. */
  payment: SpeiDetails | null;
  generatedAt: Date;
}

/** Unicode spaces outside WinAnsi (Intl uses U+202F in some locales) would print as boxes. */
function pdfText(value: string): string {
  return value.replace(/[\u2000-\u200B\u202F\u205F\u3000]/g, " ");
}

const ORANGE = "#c2410c";
const INK = "#1f2933";
const MUTED = "#52606d";
const RULE = "#cbd2d9";
const BODY_SIZE = 9;

const styles = StyleSheet.create({
  page: { paddingTop: 40, paddingBottom: 56, paddingHorizontal: 40, fontFamily: "Helvetica", fontSize: BODY_SIZE, color: INK },
  header: { flexDirection: "row", justifyContent: "space-between", borderBottomWidth: 2, borderBottomColor: ORANGE, paddingBottom: 12 },
  brand: { fontSize: 16, fontFamily: "Helvetica-Bold", color: ORANGE },
  small: { fontSize: 8, color: MUTED },
  docTitle: { fontSize: 14, fontFamily: "Helvetica-Bold", textAlign: "right" },
  right: { textAlign: "right" },
  draftBanner: { marginTop: 10, padding: 6, borderWidth: 1, borderColor: ORANGE, color: ORANGE, fontFamily: "Helvetica-Bold", fontSize: 12, textAlign: "center" },
  section: { marginTop: 16 },
  sectionTitle: { fontSize: 10, fontFamily: "Helvetica-Bold", marginBottom: 4 },
  bold: { fontFamily: "Helvetica-Bold" },
  tableHead: { flexDirection: "row", backgroundColor: "#f5f7fa", borderBottomWidth: 1, borderBottomColor: RULE, fontFamily: "Helvetica-Bold" },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: RULE },
  cell: { paddingVertical: 4, paddingHorizontal: 3 },
  colIndex: { width: "5%" },
  colDescription: { width: "37%" },
  colQuantity: { width: "14%", textAlign: "right" },
  colPrice: { width: "15%", textAlign: "right" },
  colDiscount: { width: "11%", textAlign: "right" },
  colAmount: { width: "18%", textAlign: "right" },
  totals: { marginTop: 8, marginLeft: "50%" },
  totalRow: { flexDirection: "row", justifyContent: "space-between", paddingVertical: 2 },
  grandTotal: { flexDirection: "row", justifyContent: "space-between", paddingVertical: 4, borderTopWidth: 1, borderTopColor: INK, fontFamily: "Helvetica-Bold", fontSize: 11 },
  signature: { marginTop: 18, padding: 10, borderWidth: 1, borderColor: "#15803d" },
  // No lineHeight here: react-pdf drops "render" (page number) text under an inherited lineHeight.
  footer: { position: "absolute", bottom: 24, left: 40, right: 40, flexDirection: "row", justifyContent: "space-between", fontSize: 7, color: MUTED },
  // A unitless lineHeight is multiplied by the fontSize of the same style, and react-pdf takes 18 pt
  // when that style has none (inheritance comes later): 1.4 alone gave 25 pt lines under 9 pt text.
  prose: { fontSize: BODY_SIZE, lineHeight: 1.4 },
});

const statusLabel = (status: QuoteStatus) => QUOTE_STATUSES.find((option) => option.value === status)?.label ?? status;

function LinesTable({ lines }: { lines: QuoteLine[] }) {
  return (
    <View style={styles.section}>
      <View style={styles.tableHead} fixed>
        <Text style={[styles.cell, styles.colIndex]}>#</Text>
        <Text style={[styles.cell, styles.colDescription]}>Descripción</Text>
        <Text style={[styles.cell, styles.colQuantity]}>Cantidad</Text>
        <Text style={[styles.cell, styles.colPrice]}>P. unitario</Text>
        <Text style={[styles.cell, styles.colDiscount]}>Descuento</Text>
        <Text style={[styles.cell, styles.colAmount]}>Importe</Text>
      </View>
      {lines.map((line, index) => (
        <View key={index} style={styles.row} wrap={false}>
          <Text style={[styles.cell, styles.colIndex]}>{index + 1}</Text>
          <Text style={[styles.cell, styles.colDescription]}>{pdfText(line.description)}</Text>
          <Text style={[styles.cell, styles.colQuantity]}>{pdfText(formatLineQuantity(line.quantityMilli, line.unit))}</Text>
          <Text style={[styles.cell, styles.colPrice]}>{formatMoney(line.unitPriceCentavos)}</Text>
          <Text style={[styles.cell, styles.colDiscount]}>{line.discountBp ? pdfText(formatDiscount(line.discountBp)) : "—"}</Text>
          <Text style={[styles.cell, styles.colAmount]}>{formatMoney(line.netCentavos)}</Text>
        </View>
      ))}
    </View>
  );
}

/** The business facts are the published `ajustes` record's when the PDF is made (docs/decisions/0047). */
export function QuotePdf({ doc, facts }: { doc: QuotePdfDocument; facts: SiteFacts }) {
  const title = `Cotización ${doc.number}`;
  const validity = doc.validUntil
    ? `Válida hasta el ${formatDate(doc.validUntil)}.`
    : `Válida ${formatCount(doc.validityDays, "día", "días")} a partir de su envío.`;
  return (
    <Document title={title} author={facts.legalName} subject={`${title}, revisión ${doc.revision}`} creator={facts.name} producer={facts.name} language="es-MX">
      <Page size="LETTER" style={styles.page}>
        <View style={styles.header}>
          <View>
            <Text style={styles.brand}>{facts.name}</Text>
            <Text>{facts.legalName}</Text>
            <Text>RFC {facts.rfc}</Text>
            <Text style={styles.small}>{pdfText(facts.address.formatted)}</Text>
            <Text style={styles.small}>
              Tel. {facts.phone.display} · {facts.email}
            </Text>
          </View>
          <View>
            <Text style={styles.docTitle}>COTIZACIÓN</Text>
            <Text style={[styles.right, styles.bold]}>{doc.number}</Text>
            <Text style={styles.right}>Revisión {doc.revision}</Text>
            <Text style={styles.right}>{doc.sentAt ? `Fecha: ${pdfText(formatDate(doc.sentAt))}` : "Sin enviar"}</Text>
            <Text style={styles.right}>Estado: {doc.draft ? "Borrador" : statusLabel(doc.status)}</Text>
          </View>
        </View>

        {doc.draft ? <Text style={styles.draftBanner}>BORRADOR — vista previa interna, sin validez para el cliente</Text> : null}

        <View style={styles.section}>
          <Text style={styles.sectionTitle}>Cliente</Text>
          <Text style={styles.bold}>{pdfText(doc.customer.name)}</Text>
          {doc.customer.company ? <Text>{pdfText(doc.customer.company)}</Text> : null}
          <Text>{doc.customer.email}</Text>
        </View>

        <LinesTable lines={doc.lines} />
        <Text style={[styles.small, { marginTop: 4 }]}>Precios unitarios e importes antes de IVA, en pesos mexicanos (MXN).</Text>

        <View style={styles.totals} wrap={false}>
          <View style={styles.totalRow}>
            <Text>Subtotal</Text>
            <Text>{formatMoney(doc.subtotalCentavos)}</Text>
          </View>
          <View style={styles.totalRow}>
            <Text>IVA 16 %</Text>
            <Text>{formatMoney(doc.ivaCentavos)}</Text>
          </View>
          <View style={styles.grandTotal}>
            <Text>Total (IVA incluido)</Text>
            <Text>{formatMoney(doc.totalCentavos)} MXN</Text>
          </View>
        </View>

        <View style={styles.section} wrap={false}>
          <Text style={styles.sectionTitle}>Entrega y vigencia</Text>
          <Text>
            Plazo de entrega: {formatWorkingDays(doc.leadTimeDays)}.
          </Text>
          <Text>{pdfText(validity)}</Text>
        </View>

        {doc.terms.trim() ? (
          <View style={styles.section}>
            <Text style={styles.sectionTitle}>Términos y condiciones</Text>
            <Text style={styles.prose}>{pdfText(doc.terms)}</Text>
          </View>
        ) : null}

        {doc.acceptance ? (
          <View style={styles.signature} wrap={false}>
            <Text style={styles.sectionTitle}>Aceptación del cliente</Text>
            <Text>
              {pdfText(
                `Aceptada por ${doc.acceptance.name} el ${formatDateTime(doc.acceptance.at)} (hora de la Ciudad de México)${doc.acceptance.ip ? ` desde ${doc.acceptance.ip}` : ""}.`,
              )}
            </Text>
            <Text style={styles.small}>Firma electrónica: nombre completo escrito por el cliente al aceptar en el portal de {facts.shortName}.</Text>
          </View>
        ) : null}

        {doc.payment ? (
          <View style={styles.section} wrap={false}>
            <Text style={styles.sectionTitle}>Datos para el pago (SPEI)</Text>
            <Text style={styles.prose}>{pdfText(quotePaymentAmountText(`${formatMoney(doc.totalCentavos)} MXN`, facts.paymentTerms.depositPercent))}</Text>
            <Text>Banco: {pdfText(doc.payment.bank)}</Text>
            <Text>
              CLABE: <Text style={styles.bold}>{doc.payment.clabeDisplay}</Text>
            </Text>
            <Text>Beneficiario: {pdfText(doc.payment.beneficiary)}</Text>
            <Text>
              Referencia: <Text style={styles.bold}>{doc.payment.reference}</Text>
            </Text>
            <Text style={[styles.prose, { marginTop: 2 }]}>{pdfText(quotePaymentReferenceText(doc.payment.reference, facts.email))}</Text>
          </View>
        ) : null}

        {doc.rejection ? (
          <View style={styles.section} wrap={false}>
            <Text style={styles.sectionTitle}>Cotización rechazada</Text>
            <Text>
              {pdfText(
                [doc.rejection.at ? `Rechazada el ${formatDateTime(doc.rejection.at)}` : "Rechazada", doc.rejection.reason, doc.rejection.note].filter(Boolean).join(" — "),
              )}
            </Text>
          </View>
        ) : null}

        <View style={styles.footer} fixed>
          <Text>
            {`${doc.number} · revisión ${doc.revision}${doc.draft ? " · BORRADOR" : ""} · generado el ${pdfText(formatDateTime(doc.generatedAt))}`}
          </Text>
          <Text render={({ pageNumber, totalPages }) => `Página ${pageNumber} de ${totalPages}`} />
        </View>
      </Page>
    </Document>
  );
}

export function renderQuotePdf(doc: QuotePdfDocument, facts: SiteFacts): Promise<Buffer> {
  return renderToBuffer(<QuotePdf doc={doc} facts={facts} />);
}

type CustomerView = NonNullable<Awaited<ReturnType<typeof getQuoteForCustomer>>>;
type StaffView = NonNullable<Awaited<ReturnType<typeof getQuoteForStaff>>>;
type Revision = Omit<StaffView["current"], "notes">;

function documentFrom(quote: StaffView["quote"] | CustomerView["quote"], revision: Revision, acceptedIp: string | null, now: Date, facts: SiteFacts): QuotePdfDocument {
  const draft = revision.sentAt === null;
  return {
    number: quote.number,
    revision: revision.revision,
    draft,
    status: quote.status,
    sentAt: revision.sentAt,
    validUntil: revision.validUntil,
    validityDays: revision.validityDays,
    customer: { name: quote.customerName, company: quote.customerCompany, email: quote.customerEmail },
    lines: revision.lines,
    subtotalCentavos: revision.subtotalCentavos,
    ivaCentavos: revision.ivaCentavos,
    totalCentavos: revision.totalCentavos,
    leadTimeDays: revision.leadTimeDays,
    terms: revision.terms,
    // revision.notes are staff-only ("notas internas"): never printed.
    acceptance: !draft && quote.status === "aceptada" && quote.acceptedName && quote.acceptedAt ? { name: quote.acceptedName, at: quote.acceptedAt, ip: acceptedIp } : null,
    rejection: !draft && quote.status === "rechazada" ? { reason: quote.rejectedReason, note: quote.rejectedNote, at: quote.rejectedAt } : null,
    payment: quotePaymentDetails(quote, facts, draft),
    generatedAt: now,
  };
}

/**
 * The PDF a signed-in user may download, or null when it is not theirs to see (the route answers
 * 404 either way). The owner gets the revision they were sent; staff get the newest revision,
 * marked "BORRADOR" while unsent.
 */
export async function getQuotePdf(quoteId: string, viewer: { userId: string; staff: boolean }, now = new Date()): Promise<{ filename: string; body: Buffer } | null> {
  let doc: QuotePdfDocument;
  const facts = await getSiteFacts();
  if (viewer.staff) {
    const view = await getQuoteForStaff(quoteId, now);
    if (!view) return null;
    doc = documentFrom(view.quote, view.current, view.quote.acceptedIp, now, facts);
  } else {
    const view = await getQuoteForCustomer(quoteId, viewer.userId, now);
    if (!view) return null;
    // The customer's reader leaves the IP out of what ships to the browser; the signed record in
    // the PDF states it, so it is read here, on the server, once the owner is established.
    const acceptedIp = view.quote.status === "aceptada" ? ((await getQuoteForStaff(quoteId, now))?.quote.acceptedIp ?? null) : null;
    doc = documentFrom(view.quote, view.revision, acceptedIp, now, facts);
  }
  return { filename: `${doc.number}.pdf`, body: await renderQuotePdf(doc, facts) };
}
