// Answers of the demo model to the panel's commands and context, written the way a model would: /commit gets a
// commit message for the staged diff it is sent (the panel puts the answer in the Source Control box as it is), a
// review (the demo's /review prompt file) lists findings for the file it read, and context attached with `#`
// (Changes, Problems, Terminal, a folder, a symbol) is answered from what it holds.

/** The /commit request: its prompt (src/instructions/slashCommands.ts) or the message the panel composes. */
export function asksForCommitMessage(question: string, instructions: string | null | undefined): boolean {
  return /^\/commit\b/.test(question) || (typeof instructions === "string" && instructions.includes("Write a git commit message for the staged changes"));
}

/** "review", as in `/review file=hello.ts` or "review hello.ts". */
export const WANTS_REVIEW = /\breview\b/i;

interface FileChange {
  path: string;
  added: string[];
  removed: number;
  created: boolean;
}

/** The files of a unified diff (`git diff --cached`), with their added lines. */
function changesOf(diff: string): FileChange[] {
  const files: FileChange[] = [];
  for (const line of diff.split("\n")) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) files.push({ path: header[2]!, added: [], removed: 0, created: false });
    const current = files[files.length - 1];
    if (!current) continue;
    if (line.startsWith("new file mode")) current.created = true;
    else if (line.startsWith("+") && !line.startsWith("+++")) current.added.push(line.slice(1));
    else if (line.startsWith("-") && !line.startsWith("---")) current.removed += 1;
  }
  return files;
}

const DECLARATION = /^\s*(?:export\s+)?(?:async\s+)?(?:function|class|const|interface|type)\s+(\w+)/;

/** A commit message for a staged diff: a summary line under 72 characters in the imperative, and a short body. */
export function commitMessageFor(diff: string): string {
  const files = changesOf(diff);
  if (files.length === 0) return "Update the project";
  const names = (list: readonly string[]) => (list.length <= 2 ? list.join(" and ") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`);
  const declared = files.flatMap((file) => file.added.map((line) => DECLARATION.exec(line)?.[1]).filter((name): name is string => name !== undefined));
  const created = files.filter((file) => file.created).map((file) => file.path);
  let summary: string;
  if (declared.length > 0) summary = `Add ${names(declared.map((name) => `${name}()`))} to ${names(files.map((file) => file.path))}`;
  else if (created.length === files.length) summary = `Add ${names(created)}`;
  else summary = `Update ${names(files.map((file) => file.path))}`;
  if (summary.length > 72) summary = files.length === 1 ? `Update ${files[0]!.path}`.slice(0, 72) : `Update ${files.length} files`;
  const body = files.map((file) => `- ${file.path}: ${file.added.length} line${file.added.length === 1 ? "" : "s"} added, ${file.removed} removed`).join("\n");
  return `${summary}\n\n${body}`;
}

/** A short review of a file the demo read: what each declaration does at a glance, and what is missing. */
export function reviewOf(path: string, content: string): string {
  const lines = content.split("\n");
  const findings = lines.flatMap((line, index) => {
    const name = DECLARATION.exec(line)?.[1];
    return name ? [`- Line ${index + 1}: \`${name}\` is clearly named and typed; I see no bug in it. No test of it was among the files I read.`] : [];
  });
  const todo = lines.flatMap((line, index) => (/\b(TODO|FIXME)\b/.test(line) ? [`- Line ${index + 1}: an open ${/FIXME/.test(line) ? "FIXME" : "TODO"}.`] : []));
  const all = [...findings, ...todo];
  return [`Review of \`${path}\` (${lines.length - (content.endsWith("\n") ? 1 : 0)} lines):`, all.length > 0 ? all.join("\n") : "- Nothing to report: it declares nothing a reader would call.", "I changed no files."].join("\n\n");
}

/** A block the panel attached to the message (src/panel/context/messageAttachments.ts): its kind, label and fenced text. */
export interface SentAttachment {
  kind: string;
  label: string;
  content: string;
}

/** Every attachment block of a user message, in order. */
export function attachmentsOf(text: string): SentAttachment[] {
  return [...text.matchAll(/<attachment kind="([^"]*)" label="([^"]*)">\n(`{3,})[^\n]*\n([\s\S]*?)\n\3\n<\/attachment>/g)].map((match) => ({ kind: match[1]!, label: match[2]!, content: match[4]! }));
}

/** The kinds a person attaches on purpose with `#` (a file may just be the active editor going along). */
export const CONTEXT_KINDS = new Set(["changes", "problems", "terminal", "folder", "symbol"]);

/** What the demo can say of attached context: a line or two per attachment, from its text. */
export function describeContext(attachments: readonly SentAttachment[]): string {
  return attachments.map(describeOne).join("\n\n");
}

function describeOne({ kind, label, content }: SentAttachment): string {
  const lines = content.split("\n").filter((line) => line.trim() !== "");
  switch (kind) {
    case "changes": {
      if (!content.includes("diff --git") && !content.includes("Untracked files")) return "You attached the working tree's changes, and there are none: it matches the last commit.";
      const sections = content.split(/\n\n(?=(?:Staged changes|Unstaged changes|Untracked files) \()/);
      const described = sections.flatMap((section) => {
        const where = /^Staged/.test(section) ? "staged" : /^Unstaged/.test(section) ? "not staged" : null;
        if (where === null) return section.split("\n").slice(1).map((file) => `- \`${file}\` (untracked)`);
        return changesOf(section).map((file) => {
          const declared = file.added.map((line) => DECLARATION.exec(line)?.[1]).filter((name): name is string => name !== undefined);
          return `- \`${file.path}\` (${where}): ${file.added.length} line${file.added.length === 1 ? "" : "s"} added, ${file.removed} removed${declared.length > 0 ? `; it adds ${declared.map((name) => `\`${name}()\``).join(", ")}` : ""}.`;
        });
      });
      const staged = sections.some((section) => /^Staged/.test(section));
      return ["You attached the working tree's changes:", described.join("\n"), staged ? "Send `/commit` and I will write the commit message for the staged part." : "Stage what belongs together, then `/commit` writes its message."].join("\n\n");
    }
    case "problems":
      return lines.length === 0 || /^No problems/i.test(lines[0]!) ? "You attached the Problems list, and it is empty." : `You attached the Problems list (${lines.length} line${lines.length === 1 ? "" : "s"}). The first: ${lines[0]}`;
    case "terminal":
      return `You attached the terminal's last command. It begins:\n\n\`\`\`text\n${lines.slice(0, 6).join("\n")}\n\`\`\``;
    case "folder":
      return `You attached the folder \`${label}\`: ${lines[0] ?? "no files"}`;
    default:
      return `You attached \`${label}\` (${lines.length} line${lines.length === 1 ? "" : "s"}), beginning \`${(lines[0] ?? "").trim().slice(0, 80)}\`.`;
  }
}
