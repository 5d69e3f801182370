import { binaryStlFile } from "../support/minimal-files";
import { expect, test } from "./support/fixtures";
import { fillQuoteForm, quoteForm, quoteValues, waitFillTime } from "./support/submissions";

test.describe("off", () => {
  test.use({ javaScriptEnabled: false });
  test("slow double click", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (r) => { if (r.method() === "POST") posts.push(r.url()); });
    page.on("requestfailed", (r) => console.log("FAILED", r.method(), r.failure()?.errorText));
    page.on("response", (r) => { if (r.request().method() === "POST") console.log("RESP", r.status(), r.headers()["location"]); });
    const resp = await page.goto("/cotiza");
    console.log("CC", resp?.headers()["cache-control"]);
    const shownAt = Date.now();
    await fillQuoteForm(page, quoteValues());
    await quoteForm(page).files.setInputFiles({ name: "a.stl", mimeType: "model/stl", buffer: Buffer.from(binaryStlFile()) });
    await waitFillTime(page, shownAt);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 1500, downloadThroughput: -1, uploadThroughput: -1 });
    const t = Date.now();
    await quoteForm(page).submit.click({ noWaitAfter: true });
    await page.waitForTimeout(700);
    await quoteForm(page).submit.click({ noWaitAfter: true });
    await page.waitForURL(/enviada/);
    console.log("DONE", Date.now() - t, page.url(), posts.length);
  });
});
