"""The language server and what it knows of a file (`unorules lsp`; docs/editors.md).

tokens.py and symbols.py read a .uno file's tokens and declarations, workspace.py checks open
files with their unsaved text, features.py (hover, definitions, references, outline, highlighting,
formatting) and completion.py answer an editor's questions in plain data, and server.py (the only
module that needs the optional pygls and lsprotocol) speaks the protocol.
Imports language only.
"""
