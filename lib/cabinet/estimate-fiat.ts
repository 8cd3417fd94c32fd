/** The fiat the overview's estimates are in, as the user last chose it on this browser. */
export const ESTIMATE_FIAT_COOKIE = "gateway_cabinet_fiat";
