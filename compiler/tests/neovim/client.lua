-- Drives `rulesc lsp` from Neovim's built-in client (0.7 or newer), headless: opens the
-- ruleset's attack.rules, waits for the server's diagnostics, asks for hover, the
-- definition and the references at the position given and for the outline, and writes
-- what it saw as JSON to $RULESC_OUT.
local bin, root, out = vim.env.RULESC_BIN, vim.env.RULESC_ROOT, vim.env.RULESC_OUT
local line, col = tonumber(vim.env.RULESC_LINE), tonumber(vim.env.RULESC_COL)
local seen = {}
local function finish()
  local f = io.open(out, "w")
  f:write(vim.fn.json_encode(seen))
  f:close()
  vim.cmd("qall!")
end
local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/attack.rules"))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = "rulesc", cmd = { bin, "lsp" }, root_dir = root })
  vim.lsp.buf_attach_client(buf, id)
  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  seen.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(seen.diagnostics, { lnum = d.lnum, col = d.col, message = d.message })
  end
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    position = { line = line, character = col },
    context = { includeDeclaration = true },
  }
  local caps = vim.lsp.get_client_by_id(id).server_capabilities
  local wanted = {
    ["textDocument/hover"] = "hoverProvider",
    ["textDocument/definition"] = "definitionProvider",
    ["textDocument/documentSymbol"] = "documentSymbolProvider",
    ["textDocument/references"] = "referencesProvider",
  }
  for method, cap in pairs(wanted) do
    local answers = (caps[cap] and vim.lsp.buf_request_sync(buf, method, params, 30000)) or {}
    for _, a in pairs(answers) do
      seen[method] = a.result or { error = a.err and a.err.message }
    end
  end
end)
if not ok then seen.lua_error = tostring(err) end
finish()
