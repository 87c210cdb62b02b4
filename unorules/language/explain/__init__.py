"""A rulebook said in plain words (`unorules explain`): rulebook.py walks the IR, words.py
says actions and expressions, bracketing so that two different rules never read alike."""
