import { it } from "vitest";
import { Document, Page, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { extractText, getDocumentProxy } from "unpdf";
async function t(el: React.ReactElement) {
  const buf = await renderToBuffer(<Document><Page size="LETTER" style={{ padding: 40, paddingBottom: 56, fontFamily: "Helvetica" }}><Text>Hola</Text>{el}</Page></Document>);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buf)), { mergePages: true });
  console.log(JSON.stringify(text));
}
it("a", async () => {
  await t(<View style={{ position: "absolute", bottom: 24, left: 40, right: 40, flexDirection: "row", justifyContent: "space-between" }} fixed><Text>Pie uno</Text><Text render={({ pageNumber, totalPages }) => `Página ${pageNumber} de ${totalPages}`} /></View>);
  await t(<Text style={{ position: "absolute", bottom: 24, left: 40 }} fixed>Pie fijo</Text>);
  await t(<Text style={{ position: "absolute", bottom: 24, left: 40 }}>Pie no fijo</Text>);
  await t(<View style={{ position: "absolute", bottom: 24, left: 40, right: 40 }} fixed><Text>Pie en view</Text></View>);
  await t(<Text fixed>fijo sin absoluto</Text>);
});
