/**
 * Deposit addresses: account keys for the operator, per-invoice HD addresses for the web process, and
 * address validation for payouts and refunds.
 */
export { ADDRESS_CHAINS, type AddressChain } from "@/lib/chains/addresses/address-chain";
export {
  createRandomMasterSeed,
  deriveAccountXpub,
  deriveAccountXpubs,
  deriveMasterSeed,
  type AccountXpubs,
  type MasterSeed,
} from "@/lib/chains/addresses/account-keys";
export {
  deriveDepositAddress,
  deriveDepositAddresses,
  deriveEd25519DepositAddress,
  type DepositAddress,
  type DeriveDepositAddressInput,
  type DeriveEd25519DepositAddressInput,
  type Ed25519DepositAddress,
} from "@/lib/chains/addresses/derive-address";
export {
  ED25519_FAMILIES,
  XPUB_FAMILIES,
  getAccountPath,
  getDepositPath,
  getEd25519DepositPath,
} from "@/lib/chains/addresses/derivation-paths";
export { accountForms, formatRawTonAddress, formatTonAddress, parseTonAddress, type TonAddress } from "@/lib/chains/addresses/ton-address";
export {
  validateAddress,
  type AddressRejection,
  type AddressValidation,
  type ValidateAddressOptions,
} from "@/lib/chains/addresses/validate-address";
