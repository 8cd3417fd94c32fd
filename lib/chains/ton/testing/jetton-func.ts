/**
 * FunC source of a minimal TEP-74 jetton (minter + wallet), for the @ton/sandbox tests only.
 *
 * No jetton contract code ships offline with @ton/ton, @ton/core or @ton/sandbox, so this is a
 * small re-implementation of the standard token-contract messages: `transfer` (0x0f8a7ea5) →
 * `internal_transfer` (0x178d4519) → `transfer_notification` (0x7362d09c) to the owner and
 * `excesses` (0xd53276db) to the response destination, with wallet addresses derived from the
 * (owner, master, wallet code) state init exactly as the standard minter's `get_wallet_address`.
 * Left out: burn, bounce handling, metadata, admin change and the standard gas checks.
 */

/** The few stdlib.fc declarations the contracts use (the FunC compiler ships without stdlib). */
const STDLIB_FC = `
cell get_data() asm "c4 PUSH";
() set_data(cell c) impure asm "c4 POP";
builder begin_cell() asm "NEWC";
cell end_cell(builder b) asm "ENDC";
slice begin_parse(cell c) asm "CTOS";
builder store_ref(builder b, cell c) asm(c b) "STREF";
builder store_slice(builder b, slice s) asm "STSLICER";
builder store_coins(builder b, int x) asm "STGRAMS";
builder store_dict(builder b, cell c) asm(c b) "STDICT";
(slice, cell) load_ref(slice s) asm( -> 1 0) "LDREF";
(slice, cell) load_maybe_ref(slice s) asm( -> 1 0) "LDOPTREF";
(slice, slice) load_msg_addr(slice s) asm( -> 1 0) "LDMSGADDR";
(slice, int) load_coins(slice s) asm( -> 1 0) "LDGRAMS";
int slice_empty?(slice s) asm "SEMPTY";
int cell_hash(cell c) asm "HASHCU";
int equal_slices(slice a, slice b) asm "SDEQ";
slice my_address() asm "MYADDR";
() send_raw_message(cell msg, int mode) impure asm "SENDRAWMSG";
() raw_reserve(int amount, int mode) impure asm "RAWRESERVE";
int max(int x, int y) asm "MAX";
`;

/** Wallet-address derivation shared by minter and wallet: the standard state init layout. */
const JETTON_UTILS_FC = `
cell pack_jetton_wallet_data(int balance, slice owner, slice master, cell wallet_code) inline {
  return begin_cell().store_coins(balance).store_slice(owner).store_slice(master).store_ref(wallet_code).end_cell();
}

cell calculate_jetton_wallet_state_init(slice owner, slice master, cell wallet_code) inline {
  return begin_cell().store_uint(0, 2).store_dict(wallet_code)
    .store_dict(pack_jetton_wallet_data(0, owner, master, wallet_code)).store_uint(0, 1).end_cell();
}

slice calculate_address(cell state_init) inline {
  return begin_cell().store_uint(4, 3).store_int(0, 8).store_uint(cell_hash(state_init), 256).end_cell().begin_parse();
}
`;

const JETTON_WALLET_FC = `
#include "stdlib.fc";
#include "jetton-utils.fc";

const int min_tons_for_storage = 10000000; ;; 0.01 TON

(int, slice, slice, cell) load_data() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_coins(), ds~load_msg_addr(), ds~load_msg_addr(), ds~load_ref());
}

() save_data(int balance, slice owner, slice master, cell wallet_code) impure inline {
  set_data(pack_jetton_wallet_data(balance, owner, master, wallet_code));
}

() send_tokens(slice in_msg_body, slice sender) impure {
  int query_id = in_msg_body~load_uint(64);
  int jetton_amount = in_msg_body~load_coins();
  slice to_owner = in_msg_body~load_msg_addr();
  (int balance, slice owner, slice master, cell wallet_code) = load_data();
  balance -= jetton_amount;
  throw_unless(705, equal_slices(owner, sender));
  throw_unless(706, balance >= 0);
  cell state_init = calculate_jetton_wallet_state_init(to_owner, master, wallet_code);
  slice to_wallet = calculate_address(state_init);
  slice response = in_msg_body~load_msg_addr();
  in_msg_body~load_maybe_ref(); ;; custom_payload
  int forward_ton_amount = in_msg_body~load_coins();
  cell body = begin_cell().store_uint(0x178d4519, 32).store_uint(query_id, 64).store_coins(jetton_amount)
    .store_slice(owner).store_slice(response).store_coins(forward_ton_amount).store_slice(in_msg_body).end_cell();
  ;; bounceable internal message with state init and body in refs, carrying the rest of the inbound value
  cell msg = begin_cell().store_uint(0x18, 6).store_slice(to_wallet).store_coins(0)
    .store_uint(4 + 2 + 1, 1 + 4 + 4 + 64 + 32 + 1 + 1 + 1).store_ref(state_init).store_ref(body).end_cell();
  send_raw_message(msg, 64);
  save_data(balance, owner, master, wallet_code);
}

() receive_tokens(slice in_msg_body, slice sender, int my_ton_balance, int msg_value) impure {
  (int balance, slice owner, slice master, cell wallet_code) = load_data();
  int query_id = in_msg_body~load_uint(64);
  int jetton_amount = in_msg_body~load_coins();
  balance += jetton_amount;
  slice from = in_msg_body~load_msg_addr();
  slice response = in_msg_body~load_msg_addr();
  throw_unless(707, equal_slices(master, sender)
    | equal_slices(calculate_address(calculate_jetton_wallet_state_init(from, master, wallet_code)), sender));
  int forward_ton_amount = in_msg_body~load_coins();
  if (forward_ton_amount) {
    cell body = begin_cell().store_uint(0x7362d09c, 32).store_uint(query_id, 64).store_coins(jetton_amount)
      .store_slice(from).store_slice(in_msg_body).end_cell();
    ;; non-bounceable, so an undeployed owner wallet still gets it
    cell msg = begin_cell().store_uint(0x10, 6).store_slice(owner).store_coins(forward_ton_amount)
      .store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_ref(body).end_cell();
    send_raw_message(msg, 1);
  }
  if (response.preload_uint(2) != 0) {
    raw_reserve(max(my_ton_balance - msg_value, min_tons_for_storage), 2);
    cell msg = begin_cell().store_uint(0x10, 6).store_slice(response).store_coins(0)
      .store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_uint(0xd53276db, 32).store_uint(query_id, 64).end_cell();
    send_raw_message(msg, 128 + 2);
  }
  save_data(balance, owner, master, wallet_code);
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  if (flags & 1) { return (); } ;; bounced
  slice sender = cs~load_msg_addr();
  int op = in_msg_body~load_uint(32);
  if (op == 0x0f8a7ea5) { send_tokens(in_msg_body, sender); return (); }
  if (op == 0x178d4519) { receive_tokens(in_msg_body, sender, my_balance, msg_value); return (); }
  throw(0xffff);
}

(int, slice, slice, cell) get_wallet_data() method_id {
  return load_data();
}
`;

const JETTON_MINTER_FC = `
#include "stdlib.fc";
#include "jetton-utils.fc";

(int, slice, cell, cell) load_data() inline {
  slice ds = get_data().begin_parse();
  return (ds~load_coins(), ds~load_msg_addr(), ds~load_ref(), ds~load_ref());
}

() save_data(int total_supply, slice admin, cell content, cell wallet_code) impure inline {
  set_data(begin_cell().store_coins(total_supply).store_slice(admin).store_ref(content).store_ref(wallet_code).end_cell());
}

() recv_internal(int my_balance, int msg_value, cell in_msg_full, slice in_msg_body) impure {
  if (in_msg_body.slice_empty?()) { return (); }
  slice cs = in_msg_full.begin_parse();
  int flags = cs~load_uint(4);
  if (flags & 1) { return (); }
  slice sender = cs~load_msg_addr();
  int op = in_msg_body~load_uint(32);
  int query_id = in_msg_body~load_uint(64);
  (int total_supply, slice admin, cell content, cell wallet_code) = load_data();
  if (op == 21) { ;; mint: to_address, jetton_amount, ton_amount
    throw_unless(73, equal_slices(sender, admin));
    slice to_owner = in_msg_body~load_msg_addr();
    int jetton_amount = in_msg_body~load_coins();
    int ton_amount = in_msg_body~load_coins();
    cell state_init = calculate_jetton_wallet_state_init(to_owner, my_address(), wallet_code);
    cell body = begin_cell().store_uint(0x178d4519, 32).store_uint(query_id, 64).store_coins(jetton_amount)
      .store_uint(0, 2).store_slice(sender).store_coins(0).store_uint(0, 1).end_cell();
    cell msg = begin_cell().store_uint(0x18, 6).store_slice(calculate_address(state_init)).store_coins(ton_amount)
      .store_uint(4 + 2 + 1, 1 + 4 + 4 + 64 + 32 + 1 + 1 + 1).store_ref(state_init).store_ref(body).end_cell();
    send_raw_message(msg, 1);
    save_data(total_supply + jetton_amount, admin, content, wallet_code);
    return ();
  }
  throw(0xffff);
}

(int, int, slice, cell, cell) get_jetton_data() method_id {
  (int total_supply, slice admin, cell content, cell wallet_code) = load_data();
  return (total_supply, -1, admin, content, wallet_code);
}

slice get_wallet_address(slice owner) method_id {
  (int total_supply, slice admin, cell content, cell wallet_code) = load_data();
  return calculate_address(calculate_jetton_wallet_state_init(owner, my_address(), wallet_code));
}
`;

/** Sources keyed by file name, as `compileFunc` takes them. */
export const TEST_JETTON_SOURCES: Readonly<Record<string, string>> = {
  "stdlib.fc": STDLIB_FC,
  "jetton-utils.fc": JETTON_UTILS_FC,
  "jetton-wallet.fc": JETTON_WALLET_FC,
  "jetton-minter.fc": JETTON_MINTER_FC,
};
