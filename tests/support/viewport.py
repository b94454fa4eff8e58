"""Browser-test helper: is an element on the screen as it stands (nothing to scroll to)?"""

from __future__ import annotations


def in_viewport(page, selector: str) -> bool:
    """The first element matching `selector` lies wholly inside the window."""
    return page.evaluate(
        """(sel) => { const el = document.querySelector(sel);
            if (!el) return false;
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.top >= 0 && r.left >= 0
                && r.bottom <= innerHeight && r.right <= innerWidth; }""",
        selector,
    )
