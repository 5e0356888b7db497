"""The error a designer sees for bad input: one line naming file, key and what is allowed."""


class InputError(Exception):
    """Bad input (a rule set, an experiment, a score sheet); the CLI exits with status 2."""

    def __init__(self, source: str, key: str, message: str):
        self.source = str(source)
        self.key = key
        self.message = message
        super().__init__(f"{self.source}: {key}: {message}" if key else f"{self.source}: {message}")
