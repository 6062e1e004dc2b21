import * as vscode from "vscode";
import type { TerminalSnapshot } from "../../tools/terminalOutputTool";
import type { TerminalRun } from "../../tools/workspaceContextText";
import { readFromStart } from "./terminalOutputStream";

// The last few commands of each terminal with their output, as VS Code's shell integration reports them. Output
// is only readable from the moment a command starts (execution.read() gives nothing written before the first
// read), so it is read from the start event on, whether or not anyone asks for it later; the end event adds
// the exit code. A terminal without shell integration (a shell that does not support it, the feature turned
// off, or not started yet) has no runs, and the snapshot says so rather than returning nothing.

/** Commands kept per terminal. */
const RUNS_PER_TERMINAL = 5;
/** Raw output kept per command, from its end: a long build's last part is what matters. */
const MAX_RAW_OUTPUT_CHARS = 200_000;

interface RecordedRun extends TerminalRun {
  execution: vscode.TerminalShellExecution;
  finished: boolean;
}

export class TerminalHistory implements vscode.Disposable {
  private readonly runs = new Map<vscode.Terminal, RecordedRun[]>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.window.onDidStartTerminalShellExecution((event) => this.started(event.terminal, event.execution)),
      vscode.window.onDidEndTerminalShellExecution((event) => this.ended(event.terminal, event.execution, event.exitCode)),
      vscode.window.onDidCloseTerminal((terminal) => this.runs.delete(terminal)),
    ];
  }

  /** The active terminal's finished commands, oldest first, or why there are none to read. */
  snapshot(): TerminalSnapshot {
    const terminal = vscode.window.activeTerminal ?? vscode.window.terminals.at(-1);
    if (terminal === undefined) return { available: false, terminal: null };
    const runs = (this.runs.get(terminal) ?? []).filter((run) => run.finished);
    if (terminal.shellIntegration === undefined && runs.length === 0) return { available: false, terminal: terminal.name };
    return { available: true, terminal: terminal.name, runs: runs.map(({ terminal: name, commandLine, cwd, exitCode, output }) => ({ terminal: name, commandLine, cwd, exitCode, output })) };
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.runs.clear();
  }

  private started(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution): void {
    const run: RecordedRun = {
      execution,
      finished: false,
      terminal: terminal.name,
      commandLine: execution.commandLine.value,
      cwd: execution.cwd?.fsPath,
      exitCode: undefined,
      output: "",
    };
    const kept = [...(this.runs.get(terminal) ?? []), run].slice(-RUNS_PER_TERMINAL);
    this.runs.set(terminal, kept);
    void this.readOutput(run);
  }

  private async readOutput(run: RecordedRun): Promise<void> {
    try {
      for await (const data of readFromStart(run.execution)) {
        run.output += data;
        if (run.output.length > MAX_RAW_OUTPUT_CHARS * 2) run.output = run.output.slice(-MAX_RAW_OUTPUT_CHARS);
      }
    } catch {
      // The terminal went away while its output was read: what was read is kept.
    }
    run.output = run.output.slice(-MAX_RAW_OUTPUT_CHARS);
  }

  private ended(terminal: vscode.Terminal, execution: vscode.TerminalShellExecution, exitCode: number | undefined): void {
    const run = this.runs.get(terminal)?.find((candidate) => candidate.execution === execution);
    if (run === undefined) return;
    run.finished = true;
    run.exitCode = exitCode;
    // The command line is often more accurate once the command has ended.
    run.commandLine = execution.commandLine.value || run.commandLine;
  }
}
