import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { createUtxoRpc, type UtxoRpc } from "../utxo-rpc";

/** Where Debian's package puts the daemon (STACK-NOTES §6b). */
export const LITECOIND_PATH = "/usr/bin/litecoind";

/** A litecoind -regtest started for one test file, with a funded wallet of its own. */
export interface RegtestNode {
  /** `http://user:password@127.0.0.1:<port>` */
  rpcUrl: string;
  /** Credentials and port, for tests that build their own URLs. */
  user: string;
  password: string;
  rpcPort: number;
  /** Client for node-side actions in tests (funding, mining, reorganisations). */
  rpc: UtxoRpc;
  /** The node wallet's mining address: mature coins pay for deposits and hot-wallet funding. */
  minerAddress: string;
  /** Mines `count` blocks to the miner address and returns their hashes. */
  mine(count: number): Promise<string[]>;
  /** Stops the daemon (RPC `stop`, then SIGKILL if it lingers) and removes its data directory. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** Free TCP ports on 127.0.0.1, held open together so that they differ. */
async function findFreePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function readLogTail(datadir: string): string {
  try {
    return fs.readFileSync(path.join(datadir, "regtest", "debug.log"), "utf8").slice(-2000);
  } catch {
    return "";
  }
}

/**
 * Starts `litecoind -regtest` in a temporary data directory on free ports, waits until its RPC
 * answers, creates a wallet and mines 101 blocks so that 50 LTC are spendable. Fails (never skips)
 * when litecoind is not installed.
 */
/** Starts a regtest node; `extraArgs` are added to its command line (e.g. a higher relay fee). */
export async function startLitecoind(extraArgs: string[] = []): Promise<RegtestNode> {
  if (!fs.existsSync(LITECOIND_PATH)) {
    throw new Error(`${LITECOIND_PATH} is missing: the UTXO tests need a real litecoind. Install it with: apt-get install -y litecoind`);
  }
  const datadir = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-litecoind-"));
  const [rpcPort, p2pPort] = await findFreePorts(2);
  const user = "gateway";
  const password = randomBytes(16).toString("hex");
  const child = spawn(
    LITECOIND_PATH,
    [
      "-regtest",
      `-datadir=${datadir}`,
      "-server=1",
      "-daemon=0",
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      `-rpcport=${rpcPort}`,
      `-port=${p2pPort}`,
      "-rpcbind=127.0.0.1",
      "-rpcallowip=127.0.0.1",
      "-bind=127.0.0.1",
      // The onion service would bind port+1, which another test's node may hold.
      "-listenonion=0",
      "-fallbackfee=0.0001",
      "-txindex=1",
      "-printtoconsole=0",
      ...extraArgs,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A test process that dies without afterAll must not leave a daemon behind.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  const rpcUrl = `http://${user}:${password}@127.0.0.1:${rpcPort}`;
  const rpc = createUtxoRpc({ rpcUrl, timeoutMs: 10_000 });

  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      await rpc.call("stop", [], z.unknown()).catch(() => undefined);
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
        child.kill("SIGKILL");
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
    }
    process.removeListener("exit", killOnExit);
    fs.rmSync(datadir, { recursive: true, force: true });
  }

  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`litecoind exited with code ${child.exitCode}: ${stderr}${readLogTail(datadir)}`);
      try {
        await rpc.call("getblockchaininfo", [], z.object({ chain: z.literal("regtest") }));
        break;
      } catch (error) {
        // Connection refused before the RPC server binds, then -28 while it loads.
        if (Date.now() > deadline) throw new Error(`litecoind did not answer within ${READY_TIMEOUT_MS} ms: ${String(error)}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await rpc.call("createwallet", ["miner"], z.unknown());
    const minerAddress = await rpc.call("getnewaddress", ["", "bech32"], z.string());
    const mine = (count: number) => rpc.call("generatetoaddress", [count, minerAddress], z.array(z.string()));
    await mine(101);
    return { rpcUrl, user, password, rpcPort, rpc, minerAddress, mine, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
