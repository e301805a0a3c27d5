"""Play esmakker in a terminal: a Textual application over a ``Table`` (architecture 5.9).

Textual is the optional extra ``esmakker[terminal]``; nothing here is imported by the
rest of the package except the ``play`` command, which checks that Textual is installed.
"""
