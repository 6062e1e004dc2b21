import * as os from "node:os";
import * as path from "node:path";
import { assembleInstructions, sentSources } from "../instructions/assembleInstructions";
import { localDate } from "../instructions/baseInstruction";
import { chooseRules } from "../instructions/projectRules";
import { readRulesFolder } from "../instructions/rulesOnDisk";
import { removeKeys } from "../relay/redact";

// What `relay-chat ask` tells the model: the same base instruction as the panel, with the working directory
// as the workspace (no tools are offered), `--system TEXT` as the person's instructions, and the working
// directory's rules files unless `--no-rules`. No file is worked on, so only rules that always apply go.

export interface CliInstructions {
  text: string;
  sources: string[];
}

export async function cliInstructions(options: {
  cwd: string;
  system: string;
  modelInstructions?: { model: string; text: string } | null;
  rules: boolean;
  locale: string;
  shell: string;
  /** The relay keys the CLI holds (RELAY_CHAT_API_KEY): taken out of every text it sends as instructions. */
  secrets?: readonly (string | undefined)[];
}): Promise<CliInstructions> {
  const name = path.basename(options.cwd) || options.cwd;
  const folders = options.rules ? [await readRulesFolder(options.cwd, name)] : [];
  const assembled = assembleInstructions({
    environment: { os: `${os.type()} ${os.release()}`, shell: options.shell, workspaceFolders: [name], date: localDate(new Date()), locale: options.locale, tools: [] },
    personInstructions: options.system,
    personSource: "--system",
    modelInstructions: options.modelInstructions,
    rules: chooseRules(folders, { workingOn: new Map() }),
    redact: (text) => removeKeys(text, options.secrets ?? []),
  });
  return { text: assembled.text, sources: sentSources(assembled) };
}
