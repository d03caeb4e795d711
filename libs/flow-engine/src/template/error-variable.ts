/**
 * The slot name of `{REF.error}` for a block whose `error` handle is connected: kept apart from
 * the block's result (null after a failure). The dot keeps it apart from every name a flow can
 * write (names are letters, digits and `_`).
 */
export const errorVariable = (ref: string): string => `${ref}.error`;
