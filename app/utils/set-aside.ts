// The family's Set aside view (/admin/set-aside): what helpers rejected,
// kept whole for the family, each item folded until it is opened.

export const SET_ASIDE_VIEW = "/admin/set-aside";

/** What can be set aside. */
export type SetAsideKind = "memory" | "upload" | "candle";

/** The id of an item's entry in the view (its <details>), e.g. "memory-12". */
export const setAsideAnchor = (kind: SetAsideKind, id: number) => `${kind}-${id}`;

/** Where an item's forms post, their kind in the address (its question's second step posts there too). */
export const setAsideAction = (kind: SetAsideKind) => `${SET_ASIDE_VIEW}?kind=${kind}`;

/** The view at one item's entry (still folded: the family opens it). */
export const setAsideAddress = (kind: SetAsideKind, id: number) => `${SET_ASIDE_VIEW}#${setAsideAnchor(kind, id)}`;
