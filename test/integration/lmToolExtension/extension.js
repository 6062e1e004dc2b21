// A stand-in for another extension that offers language-model tools (as Copilot's, or an MCP server's
// through VS Code, would). Relay Chat's tests enable them in the panel and check, through `invocations`
// (this extension's API), what ran, with which input, and whether a cancel reached the tool.
const vscode = require("vscode");

/** @type {Array<{ tool: string, input: unknown, cancelled?: boolean }>} */
const invocations = [];

function textResult(text) {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function activate(context) {
  context.subscriptions.push(
    // Named like the emulator's favourite tool: its "tools" model calls get_weather before any other.
    vscode.lm.registerTool("get_weather", {
      invoke(options) {
        invocations.push({ tool: "get_weather", input: options.input });
        return textResult(`sunny in ${options.input.city}`);
      },
    }),
    vscode.lm.registerTool("relay-chat-test_record_note", {
      invoke(options) {
        invocations.push({ tool: "record_note", input: options.input });
        return textResult(`noted: ${options.input.note}`);
      },
    }),
    vscode.lm.registerTool("relay-chat-test_digits_only", {
      invoke(options) {
        invocations.push({ tool: "digits_only", input: options.input });
        return textResult(`code ${options.input.code} accepted`);
      },
    }),
    vscode.lm.registerTool("relay-chat-test_wait_for_cancel", {
      invoke(options, token) {
        const entry = { tool: "wait_for_cancel", input: options.input, cancelled: false };
        invocations.push(entry);
        return new Promise((resolve) => {
          const timer = setTimeout(() => resolve(textResult("waited 30 s")), 30_000);
          token.onCancellationRequested(() => {
            entry.cancelled = true;
            clearTimeout(timer);
            resolve(textResult("cancelled"));
          });
        });
      },
    }),
  );
  return { invocations };
}

module.exports = { activate };
