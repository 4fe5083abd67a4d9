"""Stage 1 of printing: what goes on which page, before anything is drawn (pure: sheet geometry, the proxies
of a list of cards, a text too long for one card continued on more)."""
