"""The error tree. Every user-facing failure is one of these, with a message that names the file or
input and the reason; the CLI prints the message, never a traceback."""


class FilingsError(Exception):
    """Base of every error the project raises on purpose."""


class ParseError(FilingsError):
    """A file could not be parsed: empty, truncated, wrong kind, corrupt, password-protected."""

    def __init__(self, path: str, reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class LimitExceeded(ParseError):
    """The file is over one of the resource limits of ``schema.limits`` (size, pages, facts, memory, time)."""


class UnrecognisedDocument(ParseError):
    """The file parsed but we cannot tell what it is (market, company, kind or period)."""


class QueryRefused(FilingsError):
    """A SQL statement was refused (not a read-only SELECT, or it reaches outside the warehouse), or stopped by
    one of its limits (time, memory)."""


class ConfigError(FilingsError):
    """A setting or data file (mappings, FX rates, company master) is invalid."""
