import logging
import re


class DropRequestFilter(logging.Filter):
    """Strip the request (and with it the client address) from log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "request"):
            record.request = None
        return True


class RedactAddressFilter(logging.Filter):
    """Replace anything shaped like an IPv4 or IPv6 address in a log line.

    A second line of defence (RULES.md §6): no log line may carry a client address,
    whichever library wrote it.
    """

    _ADDRESS = re.compile(
        r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])"
        r"|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])"  # IPv6, full
        r"|(?<![\w:])(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?::"  # IPv6 with ::
        r"(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?(?![\w:])"
    )

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._ADDRESS.sub("[address]", message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True
