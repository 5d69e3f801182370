import { binaryStlFile } from "../support/minimal-files";
import { expect, test } from "./support/fixtures";
import { fillQuoteForm, quoteForm, quoteValues, waitFillTime } from "./support/submissions";

test.describe("off", () => {
  test.use({ javaScriptEnabled: false });
  test("slow double click", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (r) => { if (r.method() === "POST") posts.push(r.url()); });
    page.on("requestfailed", (r) => { if (r.method() === "POST") console.log("FAILED", r.method(), r.failure()?.errorText); });
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
    await quoteForm(page).submit.scrollIntoViewIfNeeded();
    const box = (await quoteForm(page).submit.boundingBox())!;
    const t = Date.now();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(700);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(/enviada/);
    console.log("DONE", Date.now() - t, page.url(), posts.length);
  });
});
