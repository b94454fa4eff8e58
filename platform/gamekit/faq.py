"""The FAQ every game page offers (docs/requirements.md §5): one list of (question, answer) pairs,
shown on the page and given to search engines as schema.org FAQPage JSON-LD."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def faq_items(pairs: Iterable[tuple[Any, Any]]) -> list[dict[str, str]]:
    """The pairs as the page's items, in the active language."""
    return [{"question": str(q), "answer": str(a)} for q, a in pairs]


def faq_jsonld(pairs: Iterable[tuple[Any, Any]]) -> dict[str, Any]:
    """schema.org FAQPage in the active language, from the same pairs as the page."""
    return {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {
                "@type": "Question",
                "name": item["question"],
                "acceptedAnswer": {"@type": "Answer", "text": item["answer"]},
            }
            for item in faq_items(pairs)
        ],
    }
