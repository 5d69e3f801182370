import { it } from "vitest";
import { Document, Page, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { extractText, getDocumentProxy } from "unpdf";
async function t(label: string, style: object, el: React.ReactElement | null = null) {
  const buf = await renderToBuffer(<Document><Page size="LETTER" style={{ padding: 40, paddingBottom: 56, fontFamily: "Helvetica", ...style }}><Text>Hola</Text>{el}<View fixed style={{ position: "absolute", bottom: 24, left: 40, right: 40 }}><Text>Pie</Text></View></Page></Document>);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(buf)), { mergePages: true });
  console.log(label, JSON.stringify(text));
}
it("a", async () => {
  await t("plain", {});
  await t("lineHeight", { lineHeight: 1.35 });
  await t("fontSize", { fontSize: 9 });
  await t("paddingTop", { paddingTop: 40, paddingBottom: 56, paddingHorizontal: 40 });
  await t("nowrap", {}, <View wrap={false}><Text>x</Text></View>);
});
