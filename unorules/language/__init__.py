"""The language. Rulebook text (.uno, YAML, JSON) becomes the IR (plain
JSON-compatible data), is laid over what it extends, checked against the JSON Schema and by the
semantic checker, and can be said back: as canonical text (formatter, writer) or in plain words
(explain).

    parser -> transform/ -> yaml_json -> schema -> loader (merge) -> checker (expression_types,
    nesting, lints) -> the checked IR that engine.compiler compiles

May use only unorules.errors: the language knows nothing of how a rulebook is run.
"""
