"""Ratings: one per game and mode, updated exactly once per finished rated match
(docs/ratings.md). The pure maths glue is `pure`; the rest is Django."""
