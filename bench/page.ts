import { gzipSync } from "node:zlib";
import { chromium, type Browser, type Response } from "@playwright/test";
import playwrightConfig from "@/playwright.config";

export interface PageFigure {
  label: string;
  path: string;
  scripts: number;
  scriptBytes: number;
  /** The scripts' bodies gzipped here (zlib's default level), whatever the server sent. */
  scriptGzipBytes: number;
  /** How the server encoded the scripts (content-encoding), "none" when it sent them plain. */
  serverEncoding: string;
  lcpP50Ms: number;
  lcpSamples: number[];
}

/** The largest-contentful-paint entry recorded so far, in ms since navigation; null when none was. */
const READ_LCP = () =>
  new Promise<number | null>((resolve) => {
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      resolve(entries[entries.length - 1].startTime);
    }).observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(() => resolve(null), 2000);
  });

interface LoadFigure {
  lcpMs: number;
  scripts: { bytes: number; gzipBytes: number; encoding: string }[];
}

/** One load in a fresh browser context (empty cache, no service worker, no cookies). */
async function loadOnce(browser: Browser, url: string): Promise<LoadFigure> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const scriptBodies: Promise<LoadFigure["scripts"][number]>[] = [];
    page.on("response", (response: Response) => {
      if (response.request().resourceType() !== "script") return;
      scriptBodies.push(
        response.body().then(async (body) => ({
          bytes: body.length,
          gzipBytes: gzipSync(body).length,
          encoding: (await response.allHeaders())["content-encoding"] ?? "none",
        })),
      );
    });
    await page.goto(url, { waitUntil: "load" });
    // Hydration may paint after the load event; give late candidates a moment before reading.
    await page.waitForTimeout(500);
    const lcpMs = await page.evaluate(READ_LCP);
    if (lcpMs === null) throw new Error(`${url}: no largest-contentful-paint entry`);
    return { lcpMs, scripts: await Promise.all(scriptBodies) };
  } finally {
    await context.close();
  }
}

async function measurePage(browser: Browser, label: string, baseUrl: string, path: string, loads: number): Promise<PageFigure> {
  // One unreported load first: the server's first render of a route loads its modules.
  await loadOnce(browser, baseUrl + path);
  const figures: LoadFigure[] = [];
  for (let i = 0; i < loads; i++) figures.push(await loadOnce(browser, baseUrl + path));
  const lcpSamples = figures.map((figure) => figure.lcpMs).sort((a, b) => a - b);
  const { scripts } = figures[figures.length - 1];
  return {
    label,
    path,
    scripts: scripts.length,
    scriptBytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    scriptGzipBytes: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
    serverEncoding: [...new Set(scripts.map((script) => script.encoding))].join("/") || "—",
    lcpP50Ms: lcpSamples[Math.floor(lcpSamples.length / 2)],
    lcpSamples,
  };
}

/**
 * JavaScript weight and largest contentful paint of the hosted payment page in headless Chromium
 * (launched as playwright.config.ts launches it), beside the same figures for `/ping` (plain text,
 * no script: the browser and server floor) and the service page `/` (server components only: what
 * Next.js's own runtime costs). Loopback network, no throttling.
 */
export async function measureHostedPage(baseUrl: string, paymentPagePath: string, loads: number): Promise<{ ping: PageFigure; home: PageFigure; payment: PageFigure }> {
  const launchOptions = playwrightConfig.projects?.[0]?.use?.launchOptions;
  const browser = await chromium.launch(launchOptions);
  try {
    return {
      ping: await measurePage(browser, "GET /ping (plain text, baseline)", baseUrl, "/ping", loads),
      home: await measurePage(browser, "service page / (no client components)", baseUrl, "/", loads),
      payment: await measurePage(browser, "hosted payment page /pay/<id>", baseUrl, paymentPagePath, loads),
    };
  } finally {
    await browser.close();
  }
}
