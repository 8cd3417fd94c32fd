import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  findSettlementAsset,
  findSettlementSymbol,
  isSettlementSymbol,
  listNetworksOfSymbol,
  listSettlementAssets,
  listSettlementSymbols,
} from "@/lib/catalogue/settlement-assets";
import { findNetwork } from "@/lib/catalogue/networks";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue/normalize";

/**
 * The expected catalogue, copied by hand from shared/spec/networks.md §6 (and the canonical WBTC/WETH
 * contracts). Order matters: it is the order of `GET /v1/currencies`.
 */
const EXPECTED_ASSETS: ReadonlyArray<readonly [symbol: string, network: string, contract: string | null, decimals: number]> = [
  ["BTC", "bitcoin", null, 8],
  ["LTC", "litecoin", null, 8],
  ["DOGE", "dogecoin", null, 8],
  ["ETH", "ethereum", null, 18],
  ["ETH", "arbitrum", null, 18],
  ["ETH", "base", null, 18],
  ["ETH", "optimism", null, 18],
  ["BNB", "bsc", null, 18],
  ["POL", "polygon", null, 18],
  ["AVAX", "avalanche", null, 18],
  ["TRX", "tron", null, 6],
  ["SOL", "solana", null, 9],
  ["TON", "ton", null, 9],
  ["USDT", "ethereum", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6],
  ["USDT", "bsc", "0x55d398326f99059fF775485246999027B3197955", 18],
  ["USDT", "polygon", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6],
  ["USDT", "arbitrum", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6],
  ["USDT", "optimism", "0x01bFF41798a0BcF287b996046Ca68b395DbC1071", 6],
  ["USDT", "avalanche", "0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7", 6],
  ["USDT", "tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", 6],
  ["USDT", "solana", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", 6],
  ["USDT", "ton", "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", 6],
  ["USDC", "ethereum", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6],
  ["USDC", "bsc", "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", 18],
  ["USDC", "polygon", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6],
  ["USDC", "arbitrum", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6],
  ["USDC", "base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6],
  ["USDC", "optimism", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6],
  ["USDC", "avalanche", "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E", 6],
  ["USDC", "solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 6],
  ["DAI", "ethereum", "0x6B175474E89094C44Da98b954EedeAC495271d0F", 18],
  ["WBTC", "ethereum", "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", 8],
  ["WETH", "ethereum", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", 18],
];

describe("settlement assets", () => {
  it("match the expected table exactly, in order", () => {
    const actual = listSettlementAssets().map((asset) => [asset.symbol, asset.network, asset.contract ?? null, asset.decimals]);
    expect(actual).toEqual(EXPECTED_ASSETS);
  });

  it.each(EXPECTED_ASSETS)("%s on %s has contract %s and %i decimals", (symbol, network, contract, decimals) => {
    const asset = findSettlementAsset(symbol, network);
    expect(asset).not.toBeNull();
    expect(asset?.kind).toBe(contract === null ? "native" : "token");
    expect(asset?.contract).toBe(contract ?? undefined);
    expect(asset?.decimals).toBe(decimals);
  });

  it("native assets are the native coin of their network", () => {
    for (const asset of listSettlementAssets().filter((entry) => entry.kind === "native")) {
      expect(findNetwork(asset.network)?.nativeSymbol).toBe(asset.symbol);
    }
  });

  it("has no duplicate (symbol, network) pair", () => {
    const keys = listSettlementAssets().map((asset) => `${asset.symbol}/${asset.network}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each([
    ["USDT", "bsc", 18],
    ["USDC", "bsc", 18],
    ["USDT", "ethereum", 6],
    ["USDC", "base", 6],
    ["USDT", "tron", 6],
    ["USDT", "ton", 6],
    ["DAI", "ethereum", 18],
    ["WBTC", "ethereum", 8],
  ] as const)("on-chain decimals of %s on %s are %i", (symbol, network, decimals) => {
    expect(findSettlementAsset(symbol, network)?.decimals).toBe(decimals);
  });

  it.each([
    ["USDT", "base"], // no Tether deployment on Base (networks.md §6)
    ["USDC", "tron"], // Circle ended support
    ["USDC", "ton"],
    ["BTC", "ethereum"],
    ["usdt", "tron"], // lookups are exact; callers normalise
    ["USDT", "TRON"],
    ["KZT", "bitcoin"],
  ])("%s on %s is not a settlement asset", (symbol, network) => {
    expect(findSettlementAsset(symbol, network)).toBeNull();
  });

  it("accepts normalised user input", () => {
    expect(findSettlementAsset(normalizeSymbol("usdt"), normalizeNetworkId("TRON"))?.contract).toBe(
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
  });
});

describe("listNetworksOfSymbol", () => {
  it.each([
    ["BTC", ["bitcoin"]],
    ["ETH", ["ethereum", "arbitrum", "base", "optimism"]],
    ["USDT", ["ethereum", "bsc", "polygon", "arbitrum", "optimism", "avalanche", "tron", "solana", "ton"]],
    ["USDC", ["ethereum", "bsc", "polygon", "arbitrum", "base", "optimism", "avalanche", "solana"]],
    ["DAI", ["ethereum"]],
    ["TON", ["ton"]],
    ["EUR", []],
    ["usdt", []],
  ])("%s → %j", (symbol, networks) => {
    expect(listNetworksOfSymbol(symbol)).toEqual(networks);
  });
});

describe("settlement symbols", () => {
  it("are the 15 coins with canonical decimals", () => {
    expect(listSettlementSymbols()).toEqual([
      { symbol: "BTC", decimals: 8 },
      { symbol: "LTC", decimals: 8 },
      { symbol: "DOGE", decimals: 8 },
      { symbol: "ETH", decimals: 18 },
      { symbol: "BNB", decimals: 18 },
      { symbol: "POL", decimals: 18 },
      { symbol: "AVAX", decimals: 18 },
      { symbol: "TRX", decimals: 6 },
      { symbol: "SOL", decimals: 9 },
      { symbol: "TON", decimals: 9 },
      { symbol: "USDT", decimals: 6 },
      { symbol: "USDC", decimals: 6 },
      { symbol: "DAI", decimals: 18 },
      { symbol: "WBTC", decimals: 8 },
      { symbol: "WETH", decimals: 18 },
    ]);
  });

  it("every symbol has at least one network and every asset a known symbol", () => {
    for (const { symbol } of listSettlementSymbols()) {
      expect(listNetworksOfSymbol(symbol).length).toBeGreaterThan(0);
    }
    for (const asset of listSettlementAssets()) {
      expect(isSettlementSymbol(asset.symbol)).toBe(true);
    }
  });

  it.each([
    ["USDT", true],
    ["WETH", true],
    ["USD", false],
    ["EUR", false],
    ["usdt", false],
    ["MATIC", false],
  ])("isSettlementSymbol(%s) is %s", (symbol, expected) => {
    expect(isSettlementSymbol(symbol)).toBe(expected);
  });

  it("canonical decimals of USDT stay 6 although BSC uses 18", () => {
    expect(findSettlementSymbol("USDT")).toEqual({ symbol: "USDT", decimals: 6 });
    expect(findSettlementSymbol("EUR")).toBeNull();
  });
});

describe("contract address formats", () => {
  const evmContracts = EXPECTED_ASSETS.filter(([, network, contract]) => contract !== null && findNetwork(network)?.family === "evm");

  it("the keccak-256 used below matches the reference vectors", () => {
    expect(toHex(keccak256(new Uint8Array()))).toBe("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(toHex(keccak256(new TextEncoder().encode("abc")))).toBe("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
  });

  it.each([
    // EIP-55 reference vectors.
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
  ])("toEip55 reproduces the EIP-55 vector %s", (address) => {
    expect(toEip55(address.toLowerCase())).toBe(address);
  });

  it.each(evmContracts)("%s on %s: %s is 0x + 40 hex in EIP-55 checksum form", (_symbol, _network, contract) => {
    expect(contract).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(toEip55(contract as string)).toBe(contract);
  });

  it("the Tron USDT contract is a valid base58check address with prefix 0x41", () => {
    const bytes = decodeBase58("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
    expect(bytes.length).toBe(25);
    expect(bytes[0]).toBe(0x41);
    const payload = bytes.subarray(0, 21);
    const checksum = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest().subarray(0, 4);
    expect(toHex(bytes.subarray(21))).toBe(toHex(checksum));
  });

  it.each(["Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"])(
    "the Solana mint %s decodes to a 32-byte key",
    (mint) => {
      expect(decodeBase58(mint).length).toBe(32);
    },
  );

  it("the TON USDT jetton master is a bounceable mainnet address with a valid CRC16", () => {
    const bytes = new Uint8Array(Buffer.from("EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", "base64url"));
    expect(bytes.length).toBe(36);
    expect(bytes[0]).toBe(0x11); // bounceable, not testnet-only
    expect(bytes[1]).toBe(0x00); // workchain 0
    const crc = crc16Xmodem(bytes.subarray(0, 34));
    expect(((bytes[34] ?? 0) << 8) | (bytes[35] ?? 0)).toBe(crc);
  });
});

// ---- test helpers: just enough keccak-256, base58 and CRC16 to check the address formats ----

const KECCAK_ROUND_CONSTANTS = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];
/** Rotation offsets indexed by x + 5y. */
const KECCAK_ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14].map(BigInt);
const LANE_MASK = (1n << 64n) - 1n;

function rotateLeft(lane: bigint, by: bigint): bigint {
  return by === 0n ? lane : ((lane << by) | (lane >> (64n - by))) & LANE_MASK;
}

function keccakF(state: bigint[]): void {
  for (const roundConstant of KECCAK_ROUND_CONSTANTS) {
    const columns = [0, 1, 2, 3, 4].map((x) => lane(state, x) ^ lane(state, x + 5) ^ lane(state, x + 10) ^ lane(state, x + 15) ^ lane(state, x + 20));
    for (let i = 0; i < 25; i += 1) {
      const x = i % 5;
      state[i] = lane(state, i) ^ (columns[(x + 4) % 5] ?? 0n) ^ rotateLeft(columns[(x + 1) % 5] ?? 0n, 1n);
    }
    const rotated = new Array<bigint>(25).fill(0n);
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) {
        rotated[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft(lane(state, x + 5 * y), KECCAK_ROTATIONS[x + 5 * y] ?? 0n);
      }
    }
    for (let y = 0; y < 5; y += 1) {
      for (let x = 0; x < 5; x += 1) {
        const notNext = ~lane(rotated, ((x + 1) % 5) + 5 * y) & LANE_MASK;
        state[x + 5 * y] = lane(rotated, x + 5 * y) ^ (notNext & lane(rotated, ((x + 2) % 5) + 5 * y));
      }
    }
    state[0] = lane(state, 0) ^ roundConstant;
  }
}

function lane(state: readonly bigint[], index: number): bigint {
  return state[index] ?? 0n;
}

/** Keccak-256 as used by Ethereum (original padding 0x01, not SHA3's 0x06). */
function keccak256(data: Uint8Array): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate + 1) * rate);
  padded.set(data);
  padded[data.length] = (padded[data.length] ?? 0) ^ 0x01;
  padded[padded.length - 1] = (padded[padded.length - 1] ?? 0) ^ 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let offset = 0; offset < padded.length; offset += rate) {
    for (let i = 0; i < rate / 8; i += 1) {
      let value = 0n;
      for (let b = 7; b >= 0; b -= 1) {
        value = (value << 8n) | BigInt(padded[offset + i * 8 + b] ?? 0);
      }
      state[i] = lane(state, i) ^ value;
    }
    keccakF(state);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) {
    out[i] = Number((lane(state, Math.floor(i / 8)) >> BigInt((i % 8) * 8)) & 0xffn);
  }
  return out;
}

/** Writes an EVM address in EIP-55 mixed-case checksum form. */
function toEip55(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = toHex(keccak256(new TextEncoder().encode(lower)));
  const letters = [...lower].map((char, i) => (Number.parseInt(hash[i] ?? "0", 16) >= 8 ? char.toUpperCase() : char));
  return `0x${letters.join("")}`;
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function decodeBase58(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  const leadingZeros = text.length - text.replace(/^1+/, "").length;
  return new Uint8Array([...new Array<number>(leadingZeros).fill(0), ...body]);
}

function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}
