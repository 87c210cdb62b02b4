#!/usr/bin/env bash
# A real editor on the language server: Neovim (Debian's package, its built-in LSP client, no
# plugins) started in tmux with `unorules lsp`, a rulebook with an error opened, the diagnostic
# shown, then a hover on a card; the screen is printed (docs/editors.md shows it).
#
#   apt-get install neovim tmux && pip install '.[lsp]' && bash bench/editor_screen.sh
#
# Works with Neovim 0.7 (Debian 12) and later: it starts the client with vim.lsp.start_client.
set -euo pipefail
command -v nvim >/dev/null || { echo "needs Neovim: apt-get install neovim" >&2; exit 2; }
command -v tmux >/dev/null || { echo "needs tmux: apt-get install tmux" >&2; exit 2; }
unorules="$(command -v unorules)" || { echo "needs unorules on PATH: pip install '.[lsp]'" >&2; exit 2; }

dir="$(mktemp -d)"
trap 'tmux kill-session -t unorules-screen 2>/dev/null || true; rm -rf "$dir"' EXIT
cat > "$dir/init.lua" <<EOF
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.opt.shortmess:append("I")
vim.cmd("autocmd BufRead,BufNewFile *.uno setfiletype unorules")
vim.api.nvim_create_autocmd("FileType", { pattern = "unorules", callback = function(args)
  local id = vim.lsp.start_client({ name = "unorules", cmd = { "$unorules", "lsp" }, root_dir = "$dir" })
  vim.lsp.buf_attach_client(args.buf, id)
end })
EOF
cat > "$dir/my_house.uno" <<'EOF'
rulebook my_house "My house rules"
extends official
on play of skp: draw 1

card wild_customizable {
  on play:
    choose color
    each other draw 1
}
EOF

cd "$dir"
tmux new-session -d -s unorules-screen -x 100 -y 24 "nvim -u $dir/init.lua my_house.uno"
sleep 4                                        # the server starts and publishes the diagnostic
tmux send-keys -t unorules-screen "5G" "10|"   # onto the card's name
sleep 0.5
tmux send-keys -t unorules-screen ":lua vim.lsp.buf.hover()" Enter
sleep 2
tmux capture-pane -t unorules-screen -p
