import type { Language } from "../languages";
import type { Namespace } from "../words";
import book from "./book";
import candles from "./candles";
import cards from "./cards";
import common from "./common";
import follow from "./follow";
import forms from "./forms";
import gallery from "./gallery";
import guestbook from "./guestbook";
import home from "./home";
import keepsake from "./keepsake";
import life from "./life";
import mail from "./mail";
import poems from "./poems";
import rsvp from "./rsvp";
import share from "./share";
import slideshow from "./slideshow";
import voices from "./voices";

// Every namespace of the catalogs: a folder with one JSON file per language
// (docs/translations.md). A message's id is `<namespace>.<key>`, its key the
// path of nested names in the file.

export const CATALOGS: Record<Namespace, Record<Language, object>> = {
  book,
  candles,
  cards,
  common,
  follow,
  forms,
  gallery,
  guestbook,
  home,
  keepsake,
  life,
  mail,
  poems,
  rsvp,
  share,
  slideshow,
  voices,
};
