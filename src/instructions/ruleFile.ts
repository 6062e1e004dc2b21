// The shapes shared by the rules readers: a workspace folder's rules files as the host adapter read them
// (paths relative to the folder, "/"-separated) and one file chosen to go with a request.

/** The kinds of rules files, in the order they are sent (see rulesOrder.ts). */
export const RULE_KINDS = ["agentsMd", "copilotInstructions", "scopedInstructions", "claudeMd", "clineRules", "cursorRules"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface RulesFolder {
  /** The workspace folder's name, shown in sources when there are several. */
  name: string;
  /** Every rules file found in the folder: relative path → text. */
  files: ReadonlyMap<string, string>;
}

export interface RuleFile {
  kind: RuleKind;
  /** Relative to its workspace folder, "/"-separated. */
  path: string;
  text: string;
}

/** The directory part of a relative path ("" at the folder's root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}
