import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listPricingCurrencies } from "@/lib/catalogue/pricing-currencies";
import { createCoinbaseRateProvider } from "@/lib/rates/coinbase-rate-provider";
import { RateSourceError } from "@/lib/rates/rate-source-error";

/** A recorded `GET /v2/exchange-rates?currency=USD` answer (units of X per 1 USD). */
const RECORDED_BODY = readFileSync(new URL("./testing/coinbase-exchange-rates-usd.json", import.meta.url), "utf8");
const RECORDED_AT_MS = Date.parse("2026-06-15T12:00:00.000Z");
const PRICING_SYMBOLS = listPricingCurrencies().map((currency) => currency.symbol);

interface RecordedCall {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that answers every request with the given body and status, and records what it was asked. */
function serve(body: string, status = 200): { fetch: typeof fetch; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fakeFetch: typeof fetch = async (input, init) => {
    calls.push({ url: String(input), init });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
  return { fetch: fakeFetch, calls };
}

function ratesBody(rates: Record<string, unknown>): string {
  return JSON.stringify({ data: { currency: "USD", rates } });
}

function provider(fetchImpl: typeof fetch, timeoutMs?: number) {
  return createCoinbaseRateProvider({
    fetch: fetchImpl,
    now: () => RECORDED_AT_MS,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

async function expectRateSourceError(promise: Promise<unknown>, messagePart: string): Promise<RateSourceError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RateSourceError);
  const rateError = error as RateSourceError;
  expect(rateError.retryable).toBe(true);
  expect(rateError.source).toBe("coinbase");
  expect(rateError.message).toContain(messagePart);
  return rateError;
}

describe("coinbase rate provider: recorded response", () => {
  it("asks the documented URL once, with a timeout signal", async () => {
    const { fetch, calls } = serve(RECORDED_BODY);
    const rates = createCoinbaseRateProvider({ fetch, baseUrl: "https://rates.example.test/" });
    await rates.fetchUsdPrices(["BTC", "EUR"]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("https://rates.example.test/v2/exchange-rates?currency=USD");
    expect(calls[0]?.init?.signal).toBeInstanceOf(AbortSignal);
    expect(rates.name).toBe("coinbase");
    expect(rates.isOffline).toBe(false);
  });

  it("uses api.coinbase.com by default", async () => {
    const { fetch, calls } = serve(RECORDED_BODY);
    await createCoinbaseRateProvider({ fetch }).fetchUsdPrices(["BTC"]);
    expect(calls[0]?.url).toBe("https://api.coinbase.com/v2/exchange-rates?currency=USD");
  });

  // Expected values computed independently: round_half_up(10^18 / rate) / 10^18, trailing zeros dropped.
  it.each([
    ["BTC", "104222.889286314957028243"], // 1 / 0.0000095948213185
    ["EUR", "1.080999275730485261"], // 1 / 0.92507
    ["JPY", "0.006715916722632639"], // 1 / 148.9
    ["VND", "0.000039400327022714"], // 1 / 25380.5
    ["USDT", "0.9999"], // 1 / 1.0001000100010001 = 0.999900000000000000
    ["POL", "0.235500000000000001"], // POL is listed; MATIC is ignored
    ["USD", "1"],
  ])("%s costs exactly %s USD", async (symbol, usd) => {
    const prices = await provider(serve(RECORDED_BODY).fetch).fetchUsdPrices([symbol]);
    expect(prices.get(symbol)).toEqual({
      symbol,
      usd,
      asOf: new Date(RECORDED_AT_MS),
      source: "coinbase",
    });
  });

  it("prices all 38 pricing currencies from the recorded table", async () => {
    const prices = await provider(serve(RECORDED_BODY).fetch).fetchUsdPrices(PRICING_SYMBOLS);
    expect([...prices.keys()].sort()).toEqual([...PRICING_SYMBOLS].sort());
  });

  it("leaves symbols Coinbase does not list out of the map", async () => {
    const prices = await provider(serve(RECORDED_BODY).fetch).fetchUsdPrices(["BTC", "NOPE", "btc"]);
    expect([...prices.keys()]).toEqual(["BTC"]);
  });

  it("does not call Coinbase for an empty request", async () => {
    const { fetch, calls } = serve(RECORDED_BODY);
    expect((await provider(fetch).fetchUsdPrices([])).size).toBe(0);
    expect(calls).toHaveLength(0);
  });
});

describe("coinbase rate provider: entries", () => {
  it("falls back to MATIC when POL is not listed", async () => {
    const prices = await provider(serve(ratesBody({ MATIC: "4.2553191489361702" })).fetch).fetchUsdPrices(["POL"]);
    expect(prices.get("POL")?.usd).toBe("0.235000000000000001");
  });

  it("falls back to MATIC when the POL entry is unusable", async () => {
    const prices = await provider(serve(ratesBody({ POL: "0", MATIC: "4" })).fetch).fetchUsdPrices(["POL"]);
    expect(prices.get("POL")?.usd).toBe("0.25");
  });

  it("skips entries that are not positive decimal strings", async () => {
    const body = ratesBody({
      BTC: "0.0000104",
      EUR: "abc",
      GBP: "0",
      JPY: "-148.9",
      KRW: "",
      CHF: 0.88, // a JSON number already went through a float
      CAD: null,
      AUD: "NaN",
      INR: "0.000",
      SOL: "1e30", // so cheap its price rounds to 0 at 18 digits
      TON: "3.2e-1",
    });
    const prices = await provider(serve(body).fetch).fetchUsdPrices(["BTC", "EUR", "GBP", "JPY", "KRW", "CHF", "CAD", "AUD", "INR", "SOL", "TON"]);
    expect(Object.fromEntries([...prices].map(([symbol, price]) => [symbol, price.usd]))).toEqual({
      BTC: "96153.846153846153846154",
      TON: "3.125",
    });
  });
});

describe("coinbase rate provider: failures", () => {
  it("a timeout becomes a retryable RateSourceError", async () => {
    const timingOut: typeof fetch = async () => {
      throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    };
    const error = await expectRateSourceError(provider(timingOut, 5_000).fetchUsdPrices(["BTC"]), "no answer within 5000 ms");
    expect((error.cause as Error).name).toBe("TimeoutError");
  });

  it("the timeout signal really aborts a request that hangs", async () => {
    // Waits only for the abort: no answer ever comes. A 1 ms timeout keeps the test instant.
    const hanging: typeof fetch = (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      });
    await expectRateSourceError(provider(hanging, 1).fetchUsdPrices(["BTC"]), "no answer within 1 ms");
  });

  it("a network error becomes a retryable RateSourceError", async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    await expectRateSourceError(provider(failing).fetchUsdPrices(["BTC"]), "request failed");
  });

  it.each([400, 404, 429, 500, 502, 503])("HTTP %i becomes a retryable RateSourceError without the body", async (status) => {
    const error = await expectRateSourceError(
      provider(serve('{"errors":[{"id":"secret-detail"}]}', status).fetch).fetchUsdPrices(["BTC"]),
      `HTTP ${status}`,
    );
    expect(error.message).not.toContain("secret-detail");
  });

  it.each([
    ["HTML instead of JSON", "<html>Bad gateway</html>", "not JSON"],
    ["truncated JSON", RECORDED_BODY.slice(0, 200), "not JSON"],
    ["empty body", "", "not JSON"],
    ["JSON without data", '{"errors":[]}', "not a USD exchange-rate table"],
    ["another base currency", '{"data":{"currency":"EUR","rates":{"BTC":"0.00001"}}}', "not a USD exchange-rate table"],
    ["rates not an object", '{"data":{"currency":"USD","rates":["0.1"]}}', "not a USD exchange-rate table"],
    ["a bare array", "[]", "not a USD exchange-rate table"],
    ["null", "null", "not a USD exchange-rate table"],
  ])("%s becomes a retryable RateSourceError", async (_case, body, messagePart) => {
    await expectRateSourceError(provider(serve(body).fetch).fetchUsdPrices(["BTC"]), messagePart);
  });
});
