import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell, contractAddress, toNano } from "@ton/core";
import type { SandboxContract, TreasuryContract } from "@ton/sandbox";
import type { TonSandboxChain } from "@/lib/chains/ton/testing/ton-sandbox-access";
import { buildJettonTransferBody } from "@/lib/chains/ton/ton-messages";
import { TEST_JETTON_SOURCES } from "@/lib/chains/ton/testing/jetton-func";

/** Mint op of the test minter (the standard minter's number). */
const OP_MINT = 21;

let compiled: Promise<{ minterCode: Cell; walletCode: Cell }> | undefined;

async function compileTarget(target: string): Promise<Cell> {
  const result = await compileFunc({ targets: [target], sources: { ...TEST_JETTON_SOURCES } });
  if (result.status === "error") throw new Error(`FunC compilation of ${target} failed: ${result.message}`);
  return Cell.fromBase64(result.codeBoc);
}

/** The test jetton's code cells, compiled once per process (about half a second). */
export function compileTestJetton(): Promise<{ minterCode: Cell; walletCode: Cell }> {
  compiled ??= Promise.all([compileTarget("jetton-minter.fc"), compileTarget("jetton-wallet.fc")]).then(([minterCode, walletCode]) => ({ minterCode, walletCode }));
  return compiled;
}

/** A deployed test jetton: its master and helpers to mint and move tokens, recorded in the chain's history. */
export interface TestJetton {
  master: Address;
  /** The jetton wallet the master derives for `owner` (its own get-method). */
  walletOf(owner: Address): Promise<Address>;
  balanceOf(owner: Address): Promise<bigint>;
  mint(to: Address, amount: bigint): Promise<void>;
  /** A standard `transfer` from `from`'s jetton wallet, as a user's wallet app sends it. */
  transfer(from: SandboxContract<TreasuryContract>, to: Address, amount: bigint, options?: { forwardTonAmount?: bigint; memo?: string }): Promise<void>;
}

/** Deploys a jetton master administered by `admin`; `salt` makes distinct masters (a genuine one and a fake). */
export async function deployTestJetton(chain: TonSandboxChain, admin: SandboxContract<TreasuryContract>, salt = "USDT"): Promise<TestJetton> {
  const { minterCode, walletCode } = await compileTestJetton();
  const data = beginCell().storeCoins(0).storeAddress(admin.address).storeRef(beginCell().storeStringTail(salt).endCell()).storeRef(walletCode).endCell();
  const init = { code: minterCode, data };
  const master = contractAddress(0, init);
  chain.record(await admin.send({ to: master, value: toNano("1"), init, bounce: false }));

  const walletOf = async (owner: Address) =>
    (await chain.runGetMethod(master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }])).readAddress();
  return {
    master,
    walletOf,
    async balanceOf(owner) {
      const wallet = await walletOf(owner);
      if ((await chain.getAccountState(wallet)).status !== "active") return 0n;
      return (await chain.runGetMethod(wallet, "get_wallet_data", [])).readBigNumber();
    },
    async mint(to, amount) {
      const body = beginCell().storeUint(OP_MINT, 32).storeUint(0, 64).storeAddress(to).storeCoins(amount).storeCoins(toNano("0.05")).endCell();
      chain.record(await admin.send({ to: master, value: toNano("0.2"), body }));
    },
    async transfer(from, to, amount, options = {}) {
      const body = buildJettonTransferBody({
        queryId: 7n,
        amount,
        destination: to,
        responseDestination: from.address,
        forwardTonAmount: options.forwardTonAmount ?? 1n,
        memo: options.memo,
      });
      chain.record(await from.send({ to: await walletOf(from.address), value: toNano("0.1"), body }));
    },
  };
}
