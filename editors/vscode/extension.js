// Starts `rulesc lsp` for .rules files and YAML (the server checks YAML in a folder
// holding ruleset.yaml, and content packs, scenarios and fight files; it ignores the rest).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rulesc").get("server.path", "rulesc");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "rulesc",
    "rulesc",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "rulesc" },
        { scheme: "file", language: "yaml" },
      ],
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{rules,yaml}"),
      },
    }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
