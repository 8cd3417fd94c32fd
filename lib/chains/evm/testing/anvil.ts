import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createPublicClient, createTestClient, createWalletClient, defineChain, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";

/** The dev mnemonic anvil funds (10 000 ETH per account). */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
export const ANVIL_CHAIN_ID = 31337;

const ANVIL_BIN = path.resolve(process.cwd(), "node_modules/.bin/anvil");

export interface Anvil {
  url: string;
  port: number;
  /** Stops the node and its wrapper; resolves once both are gone. */
  stop(): Promise<void>;
}

/** A TCP port that was free a moment ago. */
export async function findFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts anvil on a free port and waits until it answers JSON-RPC. The wrapper and the binary it
 * spawns run in their own process group, so stopping kills both even if the wrapper misbehaves.
 */
export async function startAnvil(extraArgs: string[] = []): Promise<Anvil> {
  const port = await findFreePort();
  const child = spawn(ANVIL_BIN, ["--port", String(port), "--silent", "--chain-id", String(ANVIL_CHAIN_ID), ...extraArgs], {
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Last resort if afterAll never runs: the worker's exit takes the node with it.
  const killOnExit = () => killGroup(child, "SIGKILL");
  process.once("exit", killOnExit);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited early (${child.exitCode}): ${stderr}`);
    if (await answersChainId(url)) break;
    if (Date.now() > deadline) {
      killGroup(child, "SIGKILL");
      throw new Error(`anvil did not start on port ${port}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    port,
    async stop() {
      process.off("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        killGroup(child, "SIGTERM");
        const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      // The wrapper forwards SIGTERM but does not wait for the binary: make sure it is gone too.
      killGroup(child, "SIGKILL");
      const deadline = Date.now() + 5_000;
      while (child.pid !== undefined && hasLiveMembers(child.pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Whether a process group still has a running (not zombie) member; false where /proc is missing. */
function hasLiveMembers(groupId: number): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return false;
  }
  return entries.some((entry) => {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so split after ")".
      const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      return Number(fields[2]) === groupId && fields[0] !== "Z";
    } catch {
      return false;
    }
  });
}

async function answersChainId(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

export const anvilChain = defineChain({
  id: ANVIL_CHAIN_ID,
  name: "anvil",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

/** Account `index` of the dev mnemonic, with its private key bytes for a SigningKey. */
export function devAccount(index: number) {
  const account = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
  const privateKey = account.getHdKey().privateKey;
  const publicKey = account.getHdKey().publicKey;
  if (!privateKey || !publicKey) throw new Error("no key");
  return { account, signingKey: { privateKey, publicKey, address: account.address } };
}

/** viem clients on an anvil node: reads, wallet of a dev account, and anvil test methods. */
export function anvilClients(url: string, walletIndex = 0) {
  const transport = http(url);
  // A local node answers at once: poll fast and never serve a cached block number.
  const timing = { pollingInterval: 50, cacheTime: 0 };
  return {
    publicClient: createPublicClient({ chain: anvilChain, transport, ...timing }),
    walletClient: createWalletClient({ chain: anvilChain, transport, account: devAccount(walletIndex).account, ...timing }),
    testClient: createTestClient({ chain: anvilChain, transport, mode: "anvil", ...timing }),
  };
}

/** A raw JSON-RPC call, for anvil methods viem does not type (anvil_reorg). */
export async function callAnvil(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}
