import * as l10n from "@vscode/l10n";
import type { ChatTools } from "../../chat/toolRound";
import type { CommandPrompt, SlashCommand } from "../../instructions/slashCommands";
import { commandPrompt, findSlashCommand } from "../../instructions/slashCommands";
import type { ToolAvailability } from "../../tools/approvalPolicy";
import type { CommitMessageWriter } from "./commitMessage";
import { CommitMessageRun } from "./commitMessage";
import { splitMessage } from "../context/messageAttachments";
import type { ImageUpload, SlashCommandView } from "../protocol";
import type { TurnStarter } from "./turnStarter";

// What a message starting with a slash command does: /new and /compact are the panel's own actions, /commit
// writes a commit message into Source Control (commitMessage.ts), and the prompts (/explain, /fix, /tests,
// /plan and the prompt files) go with their message only, as part of what the model is told, with the
// tools the prompt file names. The message itself is sent as typed, so the turn shows what the person wrote.

/** The commands the panel offers now: the built-ins and the prompt files the host read. */
export interface SlashCommandSource {
  commands(): readonly SlashCommand[];
  /** Reads changed prompt files first (the send path waits for it, so a fresh edit goes out). */
  fresh(): Promise<readonly SlashCommand[]>;
  /** `changed` is called when the commands were read again. */
  listen(changed: () => void): void;
  /**
   * The person started typing a command (the `/` menu opened): look at the files again. A file watcher can miss
   * a folder created with its files at once (inotify reports the folder only: `mkdir -p`, a checkout), and the
   * menu must list what is on disk when it opens.
   */
  lookAgain?(): void;
}

/** What the message being sent carries because of its command; null between messages. */
export interface MessageCommand {
  command: SlashCommand;
  prompt: CommandPrompt;
  /** The only tools offered with it; null: the usual ones. */
  tools: readonly string[] | null;
}

/**
 * Plan mode's hook: when set, `/plan TEXT` is handed to it (with the command, whose `mode` is "plan") and
 * sent as a plain prompt only when it returns false.
 */
export type PlanCommandHook = (text: string, images: readonly ImageUpload[], command: SlashCommand) => Promise<boolean>;

export interface SlashCommandRunnerOptions {
  source: SlashCommandSource | null;
  turns: TurnStarter;
  newChat: () => Promise<void>;
  commit: CommitMessageWriter | null;
  setNotice: (notice: string | null) => void;
  plan?: PlanCommandHook;
  /** A turn is running (a message sent now is refused, command or not). */
  busy: () => boolean;
  /** The message of a turn on screen, as sent; null when there is no such turn. */
  turnText: (turnId: string) => string | null;
  /** Opens "What the model is told" for the next request (nextRequest.ts). */
  showInstructions?: () => Promise<void>;
}

export class SlashCommandRunner {
  private current: MessageCommand | null = null;
  /** The message box's text when it starts with `/` (the webview says so as it is typed), else "". */
  private draft = "";
  /** Sends under way (a message, or a turn sent again). */
  private sending = 0;
  /** The last send, until its command is cleared (a moment after its turn has ended). */
  private settling: Promise<void> = Promise.resolve();

  constructor(private readonly options: SlashCommandRunnerOptions) {}

  /** The command of the message being sent, for what the model is told and which tools are offered. */
  get messageCommand(): MessageCommand | null {
    return this.current;
  }

  views(): SlashCommandView[] {
    return (this.options.source?.commands() ?? []).map((command) => ({
      name: command.name,
      description: command.description,
      argumentHint: command.argumentHint,
      origin: command.origin,
      ...(command.replacesBuiltin === true ? { replacesBuiltin: true } : {}),
      ...(command.ignoredFile === undefined ? {} : { ignoredFile: command.ignoredFile }),
      // The same estimate as the instructions' (about four characters a token); /commit's diff is not known yet.
      promptTokens: command.prompt === "" ? 0 : Math.ceil(commandPrompt(command, "").text.length / 4),
    }));
  }

  /**
   * The command the next request goes with: the one of the message being sent, else the one the message box starts
   * with, so the meter, the Rules chip and every way to "What the model is told" count its prompt and its tools.
   */
  get commandForNext(): MessageCommand | null {
    // While a message is sent (and its turn runs), its own command decides, never what the box holds meanwhile.
    if (this.sending > 0 || this.options.busy()) return this.current;
    return this.current ?? this.commandOf(this.draft);
  }

  /** The message box changed; true when what its command adds to the next request changed. */
  setDraft(draft: string): boolean {
    const text = draft.trimStart().startsWith("/") ? draft : "";
    if (text === this.draft) return false;
    if (this.draft === "" && text !== "") this.options.source?.lookAgain?.();
    const before = this.commandOf(this.draft);
    this.draft = text;
    const after = this.commandOf(text);
    return before?.prompt.text !== after?.prompt.text || before?.tools?.join() !== after?.tools?.join();
  }

  /** The command a draft starts with, as it would go with the message (for "What the model is told"). */
  commandOf(draft: string): MessageCommand | null {
    if (draft === "") return null;
    const found = findSlashCommand(draft, this.options.source?.commands() ?? []);
    return found === null || found.command.kind !== "prompt" ? null : messageCommandOf(found.command, found.args);
  }

  /** Opens "What the model is told": the whole of the next request's instructions and tools, with `draft`'s command when given. */
  async showInstructions(draft?: string): Promise<void> {
    if (draft !== undefined) this.setDraft(draft);
    await this.options.showInstructions?.();
  }

  /** Sends the person's message, carrying out the command it starts with, if any. */
  async send(text: string, images: readonly ImageUpload[]): Promise<void> {
    // While a turn runs the message is refused as always, and the running turn's command stays as it is.
    if (this.options.busy()) return this.options.turns.send(text, images);
    // A command's turn ends a moment before its command is cleared: the next message must not go with it.
    await this.settling;
    const sending = this.whileSending(() => this.dispatch(text, images));
    this.settling = sending.catch(() => undefined);
    return sending;
  }

  /**
   * Sends a turn's message again (retry, regenerate, continue, edit and resend): with the prompt and tools of
   * the command it starts with, as the first time. (/commit's new answer is not put in Source Control again.)
   */
  async again(turnId: string, run: () => Promise<void>, editedText?: string): Promise<void> {
    if (this.options.busy()) return run();
    await this.settling;
    const text = editedText ?? this.options.turnText(turnId);
    const found = text === null ? null : findSlashCommand(splitMessage(text).text, this.options.source?.commands() ?? []);
    const command = found === null || found.command.prompt === "" ? null : messageCommandOf(found.command, found.args);
    const sending = this.whileSending(() => (command === null ? run() : this.withCommand(command, run)));
    this.settling = sending.catch(() => undefined);
    return sending;
  }

  private async dispatch(text: string, images: readonly ImageUpload[]): Promise<void> {
    const { turns, source } = this.options;
    const found = text.trimStart().startsWith("/") && source ? findSlashCommand(text, await source.fresh()) : null;
    if (found === null) return turns.send(text, images);
    const { command, args } = found;
    if (command.origin === "builtin") {
      switch (command.name) {
        case "new":
          await this.options.newChat();
          return args === "" && images.length === 0 ? undefined : turns.send(args, images);
        case "compact":
          return turns.summarizeEarlierTurns();
        case "commit":
          return this.commit(command);
        case "plan":
          if (this.options.plan && (await this.options.plan(args, images, command))) return;
          break;
      }
    }
    await this.withCommand(messageCommandOf(command, args), () => turns.send(text, images));
  }

  private async commit(command: SlashCommand): Promise<void> {
    const writer = this.options.commit;
    if (writer === null) {
      this.options.setNotice(l10n.t("/commit needs VS Code's Git extension, which is not available here."));
      return;
    }
    const run = new CommitMessageRun(writer, this.options.turns, this.options.setNotice);
    await run.start((work) => this.withCommand(messageCommandOf(command, ""), work));
  }

  private async whileSending(send: () => Promise<void>): Promise<void> {
    this.sending += 1;
    try {
      await send();
    } finally {
      this.sending -= 1;
    }
  }

  private async withCommand(command: MessageCommand, send: () => Promise<void>): Promise<void> {
    this.current = command;
    try {
      await send();
    } finally {
      this.current = null;
    }
  }
}

function messageCommandOf(command: SlashCommand, args: string): MessageCommand {
  return { command, prompt: commandPrompt(command, args), tools: command.tools };
}

/** The session's tools, offering only the ones the message's command names while it runs. */
export function toolsLimitedBy(tools: ChatTools, limit: () => readonly string[] | null): ChatTools {
  return {
    ...tools,
    availability: (): ToolAvailability => {
      const base = tools.availability();
      const names = limit();
      if (names === null) return base;
      const disabled = new Set(base.disabledToolNames);
      for (const tool of tools.registry.all()) if (!names.includes(tool.name)) disabled.add(tool.name);
      return { ...base, disabledToolNames: disabled };
    },
  };
}
