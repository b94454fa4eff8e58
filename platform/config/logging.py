import json
import logging
import re
from datetime import UTC, datetime


class DropRequestFilter(logging.Filter):
    """Strip the request (and with it the client address) from log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "request"):
            record.request = None
        return True


class RedactAddressFilter(logging.Filter):
    """Replace anything shaped like an IPv4 or IPv6 address in a log line.

    A second line of defence (docs/requirements.md §6): no log line may carry a client address,
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


def redact(text: str) -> str:
    return RedactAddressFilter._ADDRESS.sub("[address]", text)


class PlainFormatter(logging.Formatter):
    """One line per record (plus its traceback), addresses redacted everywhere, the
    traceback included: an exception's text often names the peer it failed to reach."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """One JSON object per line (production: journald and log shippers read it as is).

    Keys: time (UTC, ISO 8601), level, logger, message, and exc / stack when there is a
    traceback, as one string. Addresses are redacted in every value. The request and
    other extras are left out on purpose: they would carry the client address.
    """

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exc"] = redact(record.exc_text)
        if record.stack_info:
            entry["stack"] = redact(self.formatStack(record.stack_info))
        return json.dumps(entry, ensure_ascii=False)
