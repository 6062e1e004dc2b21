import { promises as fs } from "node:fs";
import { commandEnvironment } from "./commandEnvironment";
import { defaultCommandTimeoutMs, runCommandLine } from "./commandRunner";
import type { CommandRunResult } from "./commandRunner";
import type { FileToolContext } from "./fileToolContext";
import type { RunningCommands } from "./runningCommands";
import type { Tool, ToolRunResult } from "./toolContract";
import { defineTool } from "./toolContract";
import { resolveInsideWorkspace } from "./workspacePaths";

export interface RunCommandArguments {
  command: string;
  cwd?: string;
}

export interface RunCommandSettings {
  timeoutMs(): number;
  maxOutputChars(): number;
  /** Variables with secret-looking names that may still be passed (relayChat.tools.commandEnvironment.allow). */
  allowedEnvironmentNames?(): readonly string[];
  /** Values no command may see, such as the relay key in use: a variable holding one is never passed. */
  secrets?(): readonly (string | null | undefined)[];
  /** The environment commands start from; the extension host's own by default. */
  baseEnvironment?(): NodeJS.ProcessEnv;
}

export const defaultRunCommandSettings: RunCommandSettings = {
  timeoutMs: () => defaultCommandTimeoutMs,
  maxOutputChars: () => 20_000,
};

export function createRunCommandTool(context: FileToolContext, settings: RunCommandSettings = defaultRunCommandSettings, running?: RunningCommands): Tool {
  return defineTool<RunCommandArguments>({
    name: "run_command",
    description:
      "Run a shell command line in the workspace after the user approves the exact line. Returns the exit code and the " +
      "combined stdout/stderr. No input is available to the command; it is killed after the time limit. Environment " +
      "variables that look like credentials (names with KEY, TOKEN, SECRET, PASSWORD, ...) are not passed.",
    risk: "execute",
    argumentRoles: { command: "command", cwd: "folder" },
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", minLength: 1, description: "The command line, run by the system shell." },
        cwd: { type: "string", description: "Working folder relative to the workspace folder. Default: the workspace root." },
      },
      required: ["command"],
      additionalProperties: false,
    },
    run: async (args, signal) => {
      const resolved = await resolveInsideWorkspace(context.workspaceFolders(), args.cwd ?? ".");
      if (!resolved.ok) return { output: resolved.problem, isError: true };
      const isFolder = resolved.exists && (await fs.stat(resolved.absolutePath)).isDirectory();
      if (!isFolder) return { output: `The working folder "${args.cwd ?? "."}" does not exist or is not a folder.`, isError: true };

      const environment = commandEnvironment(settings.baseEnvironment?.() ?? process.env, {
        allowedNames: settings.allowedEnvironmentNames?.() ?? [],
        secrets: settings.secrets?.() ?? [],
      });
      const timeoutMs = settings.timeoutMs();
      const result = await runCommandLine({
        commandLine: args.command,
        cwd: resolved.absolutePath,
        timeoutMs,
        maxOutputChars: settings.maxOutputChars(),
        signal,
        env: environment.env,
        running,
      });
      return describeResult(result, timeoutMs, environment.removedNames);
    },
  });
}

function describeResult(result: CommandRunResult, timeoutMs: number, removedNames: readonly string[]): string | ToolRunResult {
  const output = result.output === "" ? "(no output)" : result.output;
  if (result.timedOut) return { output: `Timed out after ${Math.round(timeoutMs / 1000)} s; the command and its child processes were killed.\n${output}`, isError: true };
  if (result.stoppedOnShutdown) return { output: `Stopped because Relay Chat was shutting down; the command and its child processes were killed.\n${output}`, isError: true };
  if (result.cancelled) return `Cancelled by the user; the command and its child processes were killed.\n${output}`;
  if (result.exitCode === null) return `Ended by signal ${result.exitSignal ?? "unknown"}\n${output}`;
  // A failing command may have missed a credential it expected; say which were held back (names only).
  const held = result.exitCode !== 0 && removedNames.length > 0
    ? `\n[Environment variables not passed because they look like credentials: ${removedNames.join(", ")}. The user can allow named ones with the relayChat.tools.commandEnvironment.allow setting.]`
    : "";
  return `Exit code: ${result.exitCode}\n${output}${held}`;
}
