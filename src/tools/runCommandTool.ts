import { promises as fs } from "node:fs";
import { defaultCommandTimeoutMs, runCommandLine } from "./commandRunner";
import type { FileToolContext } from "./fileToolContext";
import type { Tool } from "./toolContract";
import { defineTool } from "./toolContract";
import { resolveInsideWorkspace } from "./workspacePaths";

export interface RunCommandArguments {
  command: string;
  cwd?: string;
}

export interface RunCommandSettings {
  timeoutMs(): number;
  maxOutputChars(): number;
}

export const defaultRunCommandSettings: RunCommandSettings = {
  timeoutMs: () => defaultCommandTimeoutMs,
  maxOutputChars: () => 20_000,
};

export function createRunCommandTool(context: FileToolContext, settings: RunCommandSettings = defaultRunCommandSettings): Tool {
  return defineTool<RunCommandArguments>({
    name: "run_command",
    description:
      "Run a shell command line in the workspace after the user approves the exact line. Returns the exit code and the " +
      "combined stdout/stderr. No input is available to the command; it is killed after the time limit.",
    risk: "execute",
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

      const timeoutMs = settings.timeoutMs();
      const result = await runCommandLine({
        commandLine: args.command,
        cwd: resolved.absolutePath,
        timeoutMs,
        maxOutputChars: settings.maxOutputChars(),
        signal,
      });
      const status = result.timedOut
        ? `Timed out after ${Math.round(timeoutMs / 1000)} s; the command and its child processes were killed.`
        : result.cancelled
          ? "Cancelled by the user; the command and its child processes were killed."
          : result.exitCode !== null
            ? `Exit code: ${result.exitCode}`
            : `Ended by signal ${result.exitSignal ?? "unknown"}`;
      return `${status}\n${result.output === "" ? "(no output)" : result.output}`;
    },
  });
}
