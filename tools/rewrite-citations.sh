#!/usr/bin/env bash
# Rewrites citations of the team's former reference specs into the repository's own design
# documents (same section numbers): RULES.md §N → docs/requirements.md §N, DESIGN.md §N →
# docs/architecture.md §N, in every tracked file. Safe to run again after a merge: it only
# touches names not already inside a path. Afterwards run ruff (a rewritten line may pass 100
# characters) and tests/platform/test_citations.py.
set -euo pipefail
cd "$(dirname "$0")/.."
git grep -lzE '\b(RULES|DESIGN)\.md\b' -- . ':!docs/requirements.md' ':!docs/architecture.md' \
  ':!tools/rewrite-citations.sh' |
  xargs -0 -r sed -i -E \
    's#(^|[^/[:alnum:]_.-])RULES\.md#\1docs/requirements.md#g; s#(^|[^/[:alnum:]_.-])DESIGN\.md#\1docs/architecture.md#g'
