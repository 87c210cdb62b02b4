"""Many games. simulation.py plays them (engine or generated code, one process, a
pool or Ray by cluster.py), stats.py gathers their statistics, comparison.py sets two variants
side by side, report.py draws the HTML report, summary_text.py says a summary in words,
replay.py writes and reads events files, result_schema.py checks what `report` is given.

May use codegen, agents, the engine and the language.
"""
