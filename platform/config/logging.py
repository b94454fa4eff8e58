import logging


class DropRequestFilter(logging.Filter):
    """Strip the request (and with it the client address) from log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        if hasattr(record, "request"):
            record.request = None
        return True
