// The family's Set aside view (/admin/set-aside): what helpers rejected,
// kept whole for the family, each item folded until it is opened.

const SET_ASIDE_VIEW = "/admin/set-aside";

/** What can be set aside. */
type SetAsideKind = "memory" | "upload" | "candle";

/** The id of an item's entry in the view (its <details>), e.g. "memory-12". */
const setAsideAnchor = (kind: SetAsideKind, id: number) => `${kind}-${id}`;

/** The view at one item's entry (still folded: the family opens it). */
export const setAsideAddress = (kind: SetAsideKind, id: number) => `${SET_ASIDE_VIEW}#${setAsideAnchor(kind, id)}`;
