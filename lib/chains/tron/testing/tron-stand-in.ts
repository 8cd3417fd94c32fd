import { tronAddressToHex } from "@/lib/chains/tron/tron-encoding";
import type { FetchFunction } from "@/lib/chains/tron/tron-http";
import { readFixture, TEST_NODE_URL } from "@/lib/chains/tron/testing/tron-recorded-conversation";

/**
 * Test support: a TRON node's HTTP API as far as service-level tests need it, where requests come
 * in no fixed order (a scrape reads tips and balances side by side), so a recorded conversation
 * cannot play it. It is the Nile node of the recorded fixtures (its `getnodeinfo`, its latest
 * block; no genesis block, as on a lite full node) holding the TRX and TRC-20 balances a test
 * sets; answers have the recorded shapes (fixtures/README.md). Anything else is answered 404.
 */
export interface TronStandIn {
  /** The node's base URL: any RPC_TRON value works, requests never leave the process. */
  url: string;
  fetch: FetchFunction;
  /** Sets an account's TRX, in sun; the account exists from then on. */
  setTrx(address: string, sun: bigint): void;
  /** Sets what the TRC-20 `contract`'s balanceOf answers for `address` (0 until set). */
  setTokenBalance(contract: string, address: string, amount: bigint): void;
  /** While true, no request is answered (until its caller gives up), as from a node that hangs. */
  isHanging: boolean;
  /** Paths requested, in order. */
  requests: string[];
}

function answer(json: unknown, status = 200): Response {
  return new Response(JSON.stringify(json), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

function hexOf(address: string): string {
  const hex = tronAddressToHex(address);
  if (!hex) throw new Error(`${address} is not a Tron address`);
  return hex;
}

export function createTronStandIn(): TronStandIn {
  const trx = new Map<string, bigint>();
  const tokens = new Map<string, bigint>();
  const tokenKey = (contractHex: string, ownerHex: string) => `${contractHex.toLowerCase()}:${ownerHex.toLowerCase()}`;

  const standIn: TronStandIn = {
    url: TEST_NODE_URL,
    isHanging: false,
    requests: [],
    setTrx(address, sun) {
      trx.set(hexOf(address), sun);
    },
    setTokenBalance(contract, address, amount) {
      tokens.set(tokenKey(hexOf(contract), hexOf(address)), amount);
    },
    async fetch(input, init) {
      const path = new URL(input).pathname;
      standIn.requests.push(path);
      if (standIn.isHanging) {
        return new Promise<Response>((_, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
        });
      }
      const body = JSON.parse(typeof init.body === "string" ? init.body : "{}") as Record<string, string>;
      switch (path) {
        case "/wallet/getnowblock":
          return answer(JSON.parse(readFixture("getnowblock.json")));
        case "/wallet/getblockbynum":
          return answer({});
        case "/wallet/getnodeinfo":
          return answer(JSON.parse(readFixture("getnodeinfo-nile.json")));
        case "/wallet/getaccount": {
          const balance = trx.get(body.address.toLowerCase());
          // proto3 JSON: an unknown account is `{}`, a zero balance is left out.
          if (balance === undefined) return answer({});
          return answer({ address: body.address.toLowerCase(), ...(balance === 0n ? {} : { balance: Number(balance) }), create_time: 1_745_829_381_000 });
        }
        case "/wallet/triggerconstantcontract": {
          if (body.function_selector !== "balanceOf(address)" || !/^[0-9a-f]{64}$/i.test(body.parameter ?? "")) return answer({ Error: "only balanceOf(address) is served here" });
          const ownerHex = `41${body.parameter.slice(24)}`;
          const amount = tokens.get(tokenKey(body.contract_address, ownerHex)) ?? 0n;
          return answer({ result: { result: true }, energy_used: 2_017, constant_result: [amount.toString(16).padStart(64, "0")], transaction: { ret: [{}] } });
        }
        default:
          return answer({}, 404);
      }
    },
  };
  return standIn;
}
