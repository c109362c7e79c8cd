// Before any test file runs: the migrated template database each file's
// database and each test server's is copied from (scripts/template-database.mjs).
import { templateDatabase } from "../../scripts/template-database.mjs";

export default function setup() {
  templateDatabase();
}
