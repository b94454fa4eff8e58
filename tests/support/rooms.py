"""Browser-test helper: a friend joins the host's room by its invitation URL."""

from __future__ import annotations

import re


def join_by_invitation(host, guest) -> None:
    """The host's page shows the invitation; the guest opens it and takes a seat."""
    host.wait_for_selector("[data-room-invite]:not([hidden])")
    guest.goto(host.input_value("[data-invite-url]"))
    guest.click("[data-join]")
    guest.wait_for_url(re.compile(r"/play/[0-9a-f-]+/$"))
