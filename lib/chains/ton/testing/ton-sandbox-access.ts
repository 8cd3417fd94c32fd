import { Address, beginCell, external, storeMessage, type Transaction } from "@ton/core";
import type { Blockchain, BlockchainTransaction } from "@ton/sandbox";
import type { TonAccess } from "@/lib/chains/ton/ton-access";

/**
 * Chain access over an in-process @ton/sandbox `Blockchain`, for tests. The sandbox has no
 * usable history query (0.41's `getTransactions` reverses its own list in place and compares
 * hashes by reference), so this layer records the transactions of every send made through it,
 * and tests pass their own sends (treasury transfers, deployments) to `record`. Chain time is the
 * sandbox's `now`, which tests set and advance; `estimateExternalFee` runs the message on a
 * snapshot and rolls it back.
 */
export interface TonSandboxChain extends TonAccess {
  readonly blockchain: Blockchain;
  /** Keeps the transactions of a send made outside this layer, so history queries see them. */
  record<T extends { transactions: BlockchainTransaction[] }>(result: T): T;
  /** Moves the sandbox clock forward; returns the new time. */
  advanceTime(seconds: number): number;
}

export function createTonSandboxAccess(blockchain: Blockchain): TonSandboxChain {
  const transactions: Transaction[] = [];
  const chainTime = () => blockchain.now ?? Math.floor(Date.now() / 1000);

  const chain: TonSandboxChain = {
    blockchain,

    record(result) {
      transactions.push(...result.transactions);
      return result;
    },

    advanceTime(seconds) {
      blockchain.now = chainTime() + seconds;
      return blockchain.now;
    },

    async getChainTime() {
      return chainTime();
    },

    async getTransactions(address: Address, page) {
      const before = page.before;
      return transactions
        .filter((transaction) => {
          const destination = transaction.inMessage?.info.dest;
          return Address.isAddress(destination) && destination.equals(address);
        })
        .filter((transaction) => before === undefined || transaction.lt < before.lt)
        .sort((a, b) => (a.lt > b.lt ? -1 : a.lt < b.lt ? 1 : 0))
        .slice(0, page.limit);
    },

    async getAccountState(address) {
      const contract = await blockchain.getContract(address);
      const state = contract.accountState;
      const data = state?.type === "active" ? (state.state.data ?? null) : null;
      return { status: state?.type ?? "nonexist", balance: contract.balance, data, atTime: chainTime() };
    },

    async runGetMethod(address, method, args) {
      // Throws for an inactive account or a non-zero exit code, as TonClient.runMethod does.
      return (await blockchain.runGetMethod(address, method, args)).stackReader;
    },

    async sendMessage(message) {
      chain.record(await blockchain.sendMessage(message));
    },

    async estimateExternalFee(address, { body, init }) {
      const snapshot = blockchain.snapshot();
      try {
        const message = beginCell().store(storeMessage(external({ to: address, init, body }))).endCell();
        const [walletTransaction] = (await blockchain.sendMessage(message)).transactions;
        let forwardFees = 0n;
        for (const outgoing of walletTransaction.outMessages.values()) {
          if (outgoing.info.type === "internal") forwardFees += outgoing.info.forwardFee;
        }
        // totalFees holds import, storage, gas and the sender's share of forwarding; the rest of
        // each forwarding fee travels in the message and is paid from the wallet's balance too.
        return walletTransaction.totalFees.coins + forwardFees;
      } finally {
        await blockchain.loadFrom(snapshot);
      }
    },
  };
  return chain;
}
