// The order the integration files start in. Two run at a time, so a long
// file started last would run on alone at the end: the files known to take
// longest start first, the others after them in vitest's own order (which,
// on a clean clone with no results cache, knows nothing of their lengths).
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Longest first, as measured on the 2-core machine (docs/development.md). */
const SLOW_FILES = [
  "tests/integration/media-processes-http.test.ts",
  "tests/integration/idle-exit-http.test.ts",
  "tests/integration/memory-book-http.test.ts",
  "tests/integration/server-timeouts.test.ts",
  "tests/integration/replication-http.test.ts",
  "tests/integration/replication-failing-http.test.ts",
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.findIndex((file) => spec.moduleId.endsWith(file));
      return index === -1 ? SLOW_FILES.length : index;
    };
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Stable: the projects keep their order, and the other files theirs.
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => group(a.spec) - group(b.spec) || rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
