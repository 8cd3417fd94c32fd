import { Address, beginCell, type Cell, type Message, type Slice } from "@ton/core";

/** TEP-74 jetton operations. */
export const OP_JETTON_TRANSFER = 0x0f8a7ea5;
export const OP_JETTON_INTERNAL_TRANSFER = 0x178d4519;
export const OP_JETTON_TRANSFER_NOTIFICATION = 0x7362d09c;
export const OP_JETTON_EXCESSES = 0xd53276db;
/** A text comment: op 0 followed by UTF-8 text. */
const OP_TEXT_COMMENT = 0;

/** The text of a comment payload (op 0), or null for anything else. Consumes the slice. */
export function readTextComment(payload: Slice): string | null {
  if (payload.remainingBits < 32 || payload.preloadUint(32) !== OP_TEXT_COMMENT) return null;
  payload.skip(32);
  try {
    return payload.loadStringTail();
  } catch {
    return null;
  }
}

/** A decoded `transfer_notification` (what a jetton wallet tells its owner after a credit). */
export interface JettonNotification {
  queryId: bigint;
  /** Jetton base units. */
  amount: bigint;
  /** The owner of the jetton wallet that sent the jettons (the payer), when given. */
  sender: Address | null;
  /** Text comment in `forward_payload`, if any (the memo of a jetton transfer). */
  memo: string | null;
}

/**
 * transfer_notification#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 * forward_payload:(Either Cell ^Cell). Null when the body is not one.
 */
export function parseJettonNotification(body: Cell): JettonNotification | null {
  try {
    const slice = body.beginParse();
    if (slice.loadUint(32) !== OP_JETTON_TRANSFER_NOTIFICATION) return null;
    const queryId = slice.loadUintBig(64);
    const amount = slice.loadCoins();
    const sender = slice.loadMaybeAddress();
    let memo: string | null = null;
    if (slice.remainingBits > 0) {
      const payload = slice.loadBit() ? slice.loadRef().beginParse() : slice;
      memo = readTextComment(payload);
    }
    return { queryId, amount, sender, memo };
  } catch {
    return null;
  }
}

export interface JettonTransferInput {
  queryId: bigint;
  /** Jetton base units. */
  amount: bigint;
  /** Owner wallet of the recipient (not its jetton wallet). */
  destination: Address;
  /** Where the jetton wallet returns the unused TON (the hot wallet). */
  responseDestination: Address;
  /** Nanotons forwarded with the notification; ≥ 1 or the recipient is never notified. */
  forwardTonAmount: bigint;
  memo?: string;
}

/**
 * transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 * response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 * forward_payload:(Either Cell ^Cell). A memo travels as a text comment in forward_payload.
 */
export function buildJettonTransferBody(input: JettonTransferInput): Cell {
  const builder = beginCell()
    .storeUint(OP_JETTON_TRANSFER, 32)
    .storeUint(input.queryId, 64)
    .storeCoins(input.amount)
    .storeAddress(input.destination)
    .storeAddress(input.responseDestination)
    .storeBit(false)
    .storeCoins(input.forwardTonAmount);
  if (input.memo === undefined) return builder.storeBit(false).endCell();
  return builder.storeBit(true).storeRef(beginCell().storeUint(OP_TEXT_COMMENT, 32).storeStringTail(input.memo).endCell()).endCell();
}

/** The amount and recipient owner of a jetton `transfer` body (see buildJettonTransferBody); null when the body is not one. */
export function parseJettonTransfer(body: Cell): { amount: bigint; destination: Address } | null {
  try {
    const slice = body.beginParse();
    if (slice.loadUint(32) !== OP_JETTON_TRANSFER) return null;
    slice.loadUintBig(64);
    const amount = slice.loadCoins();
    return { amount, destination: slice.loadAddress() };
  } catch {
    return null;
  }
}

/**
 * Hash of an external-in message normalised as TEP-467 defines it (src and import fee zeroed, no
 * state init, body in a ref), hex. It is known before broadcast and identifies the wallet
 * transaction that applies the message, which explorers also look up by it.
 */
export function normalizedExternalHash(destination: Address, body: Cell): string {
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0, 2) // src: addr_none
    .storeAddress(destination)
    .storeCoins(0) // import_fee
    .storeBit(false) // no init
    .storeBit(true) // body as ref
    .storeRef(body)
    .endCell()
    .hash()
    .toString("hex");
}

/** The normalised hash of a transaction's inbound message when it is an external-in one. */
export function normalizedHashOfMessage(message: Message | null | undefined): string | null {
  if (!message || message.info.type !== "external-in") return null;
  return normalizedExternalHash(message.info.dest, message.body);
}

/** A wallet v4's seqno: the first 32 bits of its persistent data (seqno, subwallet id, public key, plugins). */
export function readWalletV4Seqno(data: Cell): number {
  return data.beginParse().loadUint(32);
}

/**
 * The seqno a wallet v4 external message carries (signature:bits512 subwallet_id:uint32
 * valid_until:uint32 seqno:uint32 …), or null for a message that is not one.
 */
export function seqnoOfWalletV4External(message: Message | null | undefined): number | null {
  if (!message || message.info.type !== "external-in") return null;
  const body = message.body.beginParse();
  if (body.remainingBits < 512 + 96) return null;
  body.skip(512 + 32 + 32);
  return body.loadUint(32);
}
