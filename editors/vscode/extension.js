// The unorules extension: the TextMate grammar colors .uno files at once, and `unorules lsp`
// (pip install 'unorules[lsp]') gives diagnostics, hover, completion, definitions, the outline
// and formatting. The server's command is the setting `unorules.server.command`.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("unorules");
  const [command, ...args] = config.get("server.command", ["unorules", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  const documentSelector = [{ scheme: "file", language: "unorules" }];
  if (config.get("yamlRulebooks", true)) {
    documentSelector.push({ scheme: "file", language: "yaml" }, { scheme: "file", language: "json" });
  }
  // files changed on disk (a module edited elsewhere) re-check the open rulebooks that read them
  const synchronize = { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{uno,yaml,yml,json}") };
  client = new LanguageClient("unorules", "unorules", { run: server, debug: server }, { documentSelector, synchronize });
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `unorules: could not start \`${command} ${args.join(" ")}\` (pip install 'unorules[lsp]'): ${err.message}`);
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
