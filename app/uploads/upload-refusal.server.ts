import { Refusal } from "~/platform/refusal.server";

/** A request the upload rules refuse; routes turn it into {"errors": {field: [message]}}. */
export class UploadRefused extends Refusal {
  name = "UploadRefused";
}
